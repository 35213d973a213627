// localeCompare of canonically equivalent texts (NFD and NFC) is 0, as in ICU.
// "café" typed on macOS (NFD) vs NFC: ICU collation treats them as equal.
export default function (letta) {
  letta.events.on("turn_start", (event) => {
    const same = "cafe\u0301".localeCompare("caf\u00e9") === 0;
    event.input.push({ type: "message", role: "system", content: same ? "REMIND: same file" : "REMIND: different files" });
  });
}
