// The person at a Pi session's keyboard, as a scenario describes them. With no `ui` rules the
// session is headless, as Pi's print mode runs: the runner keeps its own no-op UI (`hasUI`
// false, `confirm` answers false, the other dialogs undefined), and modlearn only watches what
// an extension asks. With rules the session is Pi's RPC mode (`hasUI` true): the first matching
// rule answers a dialog, and one no rule answers (or a select answer that is not among the
// options) is dismissed, which Pi's RPC client reports as cancelled. Every dialog is recorded
// with its answer, so a report shows what was asked.

import { world } from "../world.js";

const DIALOGS = ["select", "confirm", "input", "editor"];

/** What a dialog of `kind` answers when dismissed, in Pi's RPC mode. */
function dismissed(kind) {
  return kind === "confirm" ? false : undefined;
}

/** The answer the scenario's rules give a dialog, or `{ dismissed }`. */
function ruled(rules, kind, title, options) {
  const shown = String(title ?? "");
  const rule = rules.find((r) => r.dialog === kind && (r.titleContains === undefined || shown.includes(r.titleContains)));
  const offered = kind === "select" && Array.isArray(options) ? options.map(String) : undefined;
  if (rule === undefined || rule.answer === null || (offered !== undefined && !offered.includes(rule.answer))) return { dismissed: true };
  return { answer: rule.answer, assents: rule.assents };
}

/**
 * `ui` with each dialog recorded into `watch.record` (and told to `watch.opened`, through which
 * a probe sees the dialogs a gate opened), answered by `answer(kind, title, detail, rest)`;
 * `notify` is recorded as what the user was told.
 */
function watchedMethods(ui, watch, answer) {
  const methods = {};
  for (const kind of DIALOGS) {
    methods[kind] = async (title, detail, ...rest) => {
      const given = await answer(kind, title, detail, rest);
      const shownDetail = kind === "select" ? (Array.isArray(detail) ? detail.map(String).join(", ") : undefined) : detail;
      watch().record({ kind, title: String(title ?? ""), detail: shownDetail, ...given.outcome });
      const assents = given.outcome.assents;
      watch().opened?.({ kind, title: String(title ?? ""), detail: kind === "select" ? undefined : detail, answer: given.value, ...(assents === undefined ? {} : { assents }) });
      return given.value;
    };
  }
  const notify = ui.notify;
  methods.notify = (message, type = "info") => {
    watch().notify(message, type);
    return notify?.call(ui, message, type);
  };
  return methods;
}

// Pi's no-op UI is one object for every runner (and `hasUI` is a test of its identity), so it is
// watched in place, once, on behalf of the session bound last: one candidate per engine.
const headless = { watch: null, patched: new WeakSet() };

/**
 * Binds the person of the current scenario to `runner`: Pi's no-op UI, watched, when nobody is
 * there; a scripted RPC client when the scenario has `ui` rules.
 */
export function bindPerson(runner, watch) {
  const rules = world.dialogs;
  if (rules === null) {
    runner.setUIContext(undefined, "print");
    const ui = runner.getUIContext();
    headless.watch = watch;
    if (!headless.patched.has(ui)) {
      headless.patched.add(ui);
      const own = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ui));
      const answer = async (kind, title, detail, rest) => ({ value: await own[kind](title, detail, ...rest), outcome: {} });
      Object.assign(ui, watchedMethods(own, () => headless.watch, answer));
    }
    return;
  }
  // The no-op UI's other methods, its `theme` getter kept lazy (reading it throws headless).
  const rpc = Object.defineProperties({}, Object.getOwnPropertyDescriptors(runner.getUIContext()));
  rpc.notify = () => undefined;
  const answer = async (kind, title, detail) => {
    const given = ruled(rules, kind, title, detail);
    if (given.dismissed) return { value: dismissed(kind), outcome: { dismissed: true } };
    return { value: given.answer, outcome: { answer: given.answer, ...(given.assents === undefined ? {} : { assents: given.assents }) } };
  };
  runner.setUIContext(Object.assign(rpc, watchedMethods(rpc, () => watch, answer)), "rpc");
}
