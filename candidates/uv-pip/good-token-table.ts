// Proposal: a quote-aware scanner splits the command into shell segments; the
// leading words of each segment are matched against a table of pip launcher
// forms, and the rest of the segment is kept verbatim.

const LAUNCHERS: string[][] = [
  ["pip", "install"],
  ["pip3", "install"],
  ["python", "-m", "pip", "install"],
  ["python3", "-m", "pip", "install"],
];

const REMINDER_TEXT: string =
  "Reminder: Python dependencies go through uv. Run `uv pip install <package>` " +
  "instead of `pip install` or `python -m pip install`.";

// Splits on &&, ||, ; and | outside single or double quotes. Operators are kept
// as their own pieces so joining the pieces restores the original text.
function splitSegments(command: string): string[] {
  const pieces: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote !== null) {
      current += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
      continue;
    }
    const two = command.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      pieces.push(current, two);
      current = "";
      i++;
      continue;
    }
    if (ch === ";" || ch === "|") {
      pieces.push(current, ch);
      current = "";
      continue;
    }
    current += ch;
  }
  pieces.push(current);
  return pieces;
}

// Consumes `words` from the front of `text` (each followed by whitespace or the
// end); returns the untouched remainder, or null when the words do not match.
function stripWords(text: string, words: string[]): string | null {
  let rest = text;
  for (const word of words) {
    rest = rest.replace(/^\s+/, "");
    if (!rest.startsWith(word)) return null;
    const after = rest.slice(word.length);
    if (after !== "" && !/^\s/.test(after)) return null;
    rest = after;
  }
  return rest;
}

function rewriteSegment(segment: string): string {
  const lead = segment.slice(0, segment.length - segment.trimStart().length);
  for (const words of LAUNCHERS) {
    const rest = stripWords(segment, words);
    if (rest !== null) return lead + "uv pip install" + rest;
  }
  return segment;
}

function rewriteCommand(command: string): string {
  const pieces = splitSegments(command);
  return pieces.map((piece: string, index: number) => (index % 2 === 0 ? rewriteSegment(piece) : piece)).join("");
}

export default function activate(letta: any) {
  const disposers: Array<() => void> = [];

  disposers.push(
    letta.events.on("turn_start", (event: { input: object[] }) => ({
      input: event.input.concat([{ type: "message", role: "system", content: REMINDER_TEXT }]),
    })),
  );

  disposers.push(
    letta.events.on("tool_start", (event: { toolName: string; args: { command?: unknown } }) => {
      if (event.toolName !== "Bash") return;
      const command = event.args.command;
      if (typeof command !== "string") return;
      const rewritten = rewriteCommand(command);
      return rewritten === command ? undefined : { args: { ...event.args, command: rewritten } };
    }),
  );

  return () => {
    for (const dispose of disposers.reverse()) dispose();
  };
}
