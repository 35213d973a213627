// Asks to continue after every turn without giving the model anything new: Pi refuses (the
// conversation ends with the model's own message) and reports it.
export default function (pi) {
  pi.on("turn_end", () => ({ continue: true }));
}
