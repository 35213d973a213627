// Mutant `never-disposes` (DSH): right on the spec's reminder, but starts bare
// timers that no effect owns, so they outlive every unload.
const DATA = JSON.parse(__MUTANT_DATA__);

export const name = "mutant-never-disposes";
export const inject = ["systemPrompt"];

let ticks = 0;

export function apply(ctx) {
  setInterval(() => {
    ticks += 1;
  }, 1000);
  const rearm = () => setTimeout(rearm, 5000);
  rearm();
  if (DATA.reminder.role === "system") ctx.systemPrompt.section({ name: "mutant-reminder", order: 900, text: DATA.reminder.text });
}
