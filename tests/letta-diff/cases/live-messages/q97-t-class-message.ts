// Plausible: the reminder item is a class instance whose role/type/content are prototype getters.
class SystemMessage {
  constructor(private readonly text: string) {}
  get type(): "message" { return "message"; }
  get role(): "system" { return "system"; }
  get content(): string { return this.text; }
}
const TEXT = "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";
export function activate(letta: any) {
  letta.events.on("turn_start", (e: { input: unknown[] }) => ({ input: [...e.input, new SystemMessage(TEXT)] }));
  letta.events.on("tool_start", () => undefined);
}
