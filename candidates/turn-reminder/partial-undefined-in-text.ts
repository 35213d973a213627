// Partial: interpolates a payload field that turn_start does not have
// (event.projectName), so the reminder reads "... in undefined ...". It still
// contains the markers, but fails a notContains "undefined" check.

export function activate(letta: any): void {
  letta.events.on("turn_start", (event: { input: object[]; projectName?: string }) => {
    const text: string =
      "<system-reminder>TEST-FIRST: Before editing any file in " +
      `${event.projectName}, run the existing tests and note which ones fail.</system-reminder>`;
    return { input: [...event.input, { type: "message", role: "system", content: text }] };
  });

  letta.events.on("tool_start", (_event: unknown) => undefined);
}
