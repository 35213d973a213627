// Event dispatch against Letta's documented behaviour (mod-engine tests).
import { test, assertEqual, assert } from "./harness.js";
import { beginEmission, snapshotBeforeHandler, applyResult, handlerFailed, finishEmission } from "../dispatch.js";
import { createRegistry } from "../registry.js";

function registryWith(name, handlers) {
  const registry = createRegistry(1);
  const owner = { id: "global:/m.js", path: "/m.js", scope: "global", generation: 1 };
  for (const handler of handlers) registry.events[name].push({ name, handler, owner });
  return registry;
}

async function emit(name, handlers, event) {
  const emission = beginEmission(registryWith(name, handlers), name, event);
  for (const registration of emission.registrations) {
    snapshotBeforeHandler(emission);
    try {
      applyResult(emission, await registration.handler(emission.event));
    } catch (error) {
      handlerFailed(emission, { phase: "event", message: error.message });
    }
  }
  return finishEmission(emission);
}

test("turn_start handlers see earlier changes; a throwing handler is rolled back", async () => {
  const event = { input: [{ type: "message", role: "user", content: "hello ??" }] };
  const result = await emit("turn_start", [
    (e) => ({ input: [{ ...e.input[0], content: e.input[0].content.replace("??", "first") }] }),
    (e) => {
      e.input[0].content += " second";
    },
    (e) => {
      e.input[0].content = "clobbered";
      throw new Error("third fails");
    },
    (e) => ({ input: [...e.input, { type: "message", role: "system", content: "final" }] }),
  ], event);
  assertEqual(event.input.map((i) => i.content), ["hello first second", "final"]);
  assertEqual(result.handlerCount, 4);
  assertEqual(result.diagnostics.length, 1);
});

test("the first valid cancel wins and a directly assigned cancel is ignored", async () => {
  const event = { input: [{ role: "user", content: "x" }] };
  await emit("turn_start", [
    (e) => {
      e.cancel = { reason: "assigned" };
    },
    () => ({ cancel: { reason: "   " } }),
    () => ({ cancel: { reason: "  first valid  " } }),
    () => ({ cancel: { reason: "second" } }),
  ], event);
  assertEqual(event.cancel, { reason: "first valid" });
});

test("no valid cancel deletes event.cancel", async () => {
  const event = { input: [{ role: "user", content: "x" }] };
  await emit("turn_start", [(e) => void (e.cancel = { reason: "direct" })], event);
  assert(!("cancel" in event), "cancel should be deleted");
});

test("cancel reasons are cut to 2000 characters", async () => {
  const event = { input: [] };
  await emit("turn_start", [() => ({ cancel: { reason: "x".repeat(2500) } })], event);
  assertEqual(event.cancel.reason.length, 2000);
});

test("approvals are moved first only when the original input had one", async () => {
  const approval = { type: "approval", approvals: [{ approve: true, tool_call_id: "t1" }] };
  const user = { type: "message", role: "user", content: "go" };
  const event = { input: [approval, user] };
  await emit("turn_start", [(e) => ({ input: [{ role: "system", content: "r" }, ...e.input] })], event);
  assertEqual(event.input.map((i) => i.type ?? i.role), ["approval", "system", "message"]);
});

test("an invalid turn_start input is rolled back without a diagnostic", async () => {
  const event = { input: [{ role: "user", content: "x" }] };
  const result = await emit("turn_start", [(e) => {
    e.input = "oops";
  }, () => ({ input: "also invalid" })], event);
  assertEqual(event.input, [{ role: "user", content: "x" }]);
  assertEqual(result.diagnostics.length, 0);
  assertEqual(result.results, [{ input: "also invalid" }]);
});

test("tool_start args: in-place mutation counts, throw rolls back, first result wins", async () => {
  const event = { toolName: "Bash", args: { command: "pip install x" } };
  const result = await emit("tool_start", [
    (e) => {
      e.args.command = "uv pip install x";
    },
    (e) => {
      e.args.command = "broken";
      throw new Error("boom");
    },
    () => ({ result: { status: "success", output: "first" } }),
    () => ({ result: { status: "error", output: "second" } }),
    () => ({ args: ["not", "an", "object"] }),
  ], event);
  assertEqual(event.args, { command: "uv pip install x" });
  assertEqual(event.result, { status: "success", output: "first" });
  assertEqual(result.results.length, 3);
});

test("tool_end result and turn_end continue: first valid wins", async () => {
  const toolEnd = { toolName: "Bash", status: "success", output: "o" };
  await emit("tool_end", [() => ({ result: { status: "x", output: "bad" } }), () => ({ result: { status: "error", output: "r1" } }), () => ({ result: { status: "success", output: "r2" } })], toolEnd);
  assertEqual(toolEnd.result, { status: "error", output: "r1" });
  const turnEnd = { stopReason: "end_turn" };
  await emit("turn_end", [() => ({ continue: "" }), () => ({ continue: "go on" }), () => ({ continue: "later" })], turnEnd);
  assertEqual(turnEnd.continue, "go on");
});

test("handlers registered during dispatch do not run in it", async () => {
  const registry = registryWith("tool_start", []);
  let late = 0;
  const owner = { id: "o", scope: "global", generation: 1 };
  registry.events.tool_start.push({ name: "tool_start", owner, handler: () => registry.events.tool_start.push({ name: "tool_start", owner, handler: () => late++ }) });
  const emission = beginEmission(registry, "tool_start", { args: {} });
  assertEqual(emission.registrations.length, 1);
  assertEqual(late, 0);
});
