const R = "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";
export function activate(letta) {
  letta.events.on("turn_start", async (event) => {
    const order = [];
    const p = Promise.resolve();
    (async () => { await p; order.push("a"); })();
    await p.then(() => order.push(1)).then(() => order.push(2)).then(() => order.push(3));
    if (order[0] === "a") return { input: event.input.concat({ type: "message", role: "system", content: R }) };
    return undefined;
  });
}
