// The host reads a signal's state through its private fields, whatever a mod
// did to AbortSignal.prototype and AbortController.prototype.
import { test, assertEqual } from "./harness.js";
import { AbortController, AbortSignal, isAborted, signalOf } from "../abort.js";

test("isAborted and signalOf ignore what the prototypes say", () => {
  const controller = new AbortController();
  const signal = controller.signal;
  const aborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted");
  const signalGetter = Object.getOwnPropertyDescriptor(AbortController.prototype, "signal");
  try {
    Object.defineProperty(AbortSignal.prototype, "aborted", { configurable: true, get: () => true });
    Object.defineProperty(AbortController.prototype, "signal", { configurable: true, get: () => ({ aborted: true }) });
    assertEqual(isAborted(signal), false);
    assertEqual(signalOf(controller) === signal, true);
    controller.abort("done");
    assertEqual(isAborted(signal), true);
  } finally {
    Object.defineProperty(AbortSignal.prototype, "aborted", aborted);
    Object.defineProperty(AbortController.prototype, "signal", signalGetter);
  }
  assertEqual(isAborted({ aborted: true }), false);
  assertEqual(isAborted(null), false);
  assertEqual(signalOf({ signal: signal }), null);
});
