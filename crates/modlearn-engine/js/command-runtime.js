// Letta Code's slash-command runtime (reference §1.5): splitting the input,
// the quote-aware argv, and the checks on what `run(ctx)` returns.

/** Letta's wrapping of a prompt result, unless it sets `systemReminder: false`. */
export const SYSTEM_REMINDER_OPEN = "<system-reminder>";
/** Closing tag of the wrapping. */
export const SYSTEM_REMINDER_CLOSE = "</system-reminder>";

/** How long Letta lets a command run before failing it. */
export const COMMAND_TIMEOUT_MS = 30_000;

/** `/<id> <args>` into `{ command, args }`; null when it is not a slash command. */
export function parseSlashCommand(input) {
  const trimmed = input.trim();
  if (!trimmed.startsWith("/")) return null;
  const token = trimmed.split(/\s+/, 1)[0];
  if (!token || token === "/") return null;
  const command = token.slice(1);
  if (!command || command.includes("/")) return null;
  return { command, args: trimmed.slice(token.length).trim() };
}

/**
 * Splits raw args into argv: whitespace separates, '…' and "…" group, a
 * backslash escapes the next character (inside quotes too); empty words are
 * dropped and a trailing backslash is kept.
 */
export function parseCommandArgv(args) {
  const argv = [];
  let current = "";
  let quote = null;
  let escaping = false;
  const push = () => {
    if (current.length > 0) argv.push(current);
    current = "";
  };
  for (const char of args) {
    if (escaping) {
      current += char;
      escaping = false;
    } else if (char === "\\") {
      escaping = true;
    } else if (quote) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (/\s/.test(char)) {
      push();
    } else {
      current += char;
    }
  }
  if (escaping) current += "\\";
  push();
  return argv;
}

/** Letta's normalizeModCommandResult: the result, cleaned, or a thrown Error. */
export function normalizeCommandResult(result) {
  if (!result || typeof result !== "object" || !("type" in result)) {
    throw new Error("Mod command must return { type: 'prompt' | 'output' | 'handled' }");
  }
  if (result.type === "prompt") {
    if (typeof result.content !== "string") throw new Error("Mod command prompt result requires content");
    const normalized = { type: "prompt", content: result.content };
    if (typeof result.systemReminder === "boolean") normalized.systemReminder = result.systemReminder;
    return normalized;
  }
  if (result.type === "output") {
    if (typeof result.output !== "string") throw new Error("Mod command output result requires output");
    const normalized = { type: "output", output: result.output };
    if (typeof result.success === "boolean") normalized.success = result.success;
    return normalized;
  }
  if (result.type === "handled") return { type: "handled" };
  throw new Error(`Unknown mod command result type: ${String(result.type)}`);
}

/** The text a normalised result puts in front of the agent or the user; null for `handled`. */
export function commandResultText(result) {
  if (result.type === "prompt") {
    if (result.systemReminder === false) return result.content;
    return `${SYSTEM_REMINDER_OPEN}\n${result.content}\n${SYSTEM_REMINDER_CLOSE}`;
  }
  if (result.type === "output") return result.output;
  return null;
}
