// Broken: exports an object as the default and no named activate(), so the
// loader finds no factory function.

const REMINDER_TEXT: string =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

const testFirstMod = {
  activate(letta: any): void {
    letta.events.on("turn_start", (event: { input: object[] }) => ({
      input: [...event.input, { type: "message", role: "system", content: REMINDER_TEXT }],
    }));
    letta.events.on("tool_start", () => undefined);
  },
};

export default testFirstMod;
