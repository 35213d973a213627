// An un-awaited async task appends after 2 awaits: Letta's harness reads the event a few
// promise jobs after the handler returns, so whether it sees the append depends on the count.
const R = "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";
export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    (async () => { await null; await null;  event.input.push({ type: "message", role: "system", content: R }); })();
  });
}
