// Mod tool results against Letta's getModToolStatus and flattenToolResponse (reference §3.4).
import { test, assertEqual } from "./harness.js";
import {
  flattenToolResponse, INTERRUPTED_BY_USER, isAbortError, thrownToolOutput, toolResultStatus, toolResultStreams,
} from "../tool-result.js";
import { AbortController } from "../abort.js";

test("status is error only for status error, isError true or success false", () => {
  assertEqual(toolResultStatus("failed"), "success");
  assertEqual(toolResultStatus(null), "success");
  assertEqual(toolResultStatus({ status: "error", output: "x" }), "error");
  assertEqual(toolResultStatus({ isError: true }), "error");
  assertEqual(toolResultStatus({ isError: "yes" }), "success");
  assertEqual(toolResultStatus({ success: false }), "error");
  assertEqual(toolResultStatus({ success: 0 }), "success");
  assertEqual(toolResultStatus({ status: "failed" }), "success");
});

test("primitives: nullish is empty, strings as is, others as JSON", () => {
  assertEqual(flattenToolResponse(undefined), "");
  assertEqual(flattenToolResponse(null), "");
  assertEqual(flattenToolResponse("plain"), "plain");
  assertEqual(flattenToolResponse(42), "42");
  assertEqual(flattenToolResponse(false), "false");
  assertEqual(flattenToolResponse(() => 1), "");
});

test("arrays: content blocks pass through, anything else is JSON", () => {
  const blocks = [{ type: "text", text: "a" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "" } }];
  assertEqual(flattenToolResponse(blocks), blocks);
  assertEqual(flattenToolResponse([]), []);
  assertEqual(flattenToolResponse(["a", "b"]), '["a","b"]');
});

test("objects: message, content, output, files, killed, error, todos, then JSON, first match wins", () => {
  assertEqual(flattenToolResponse({ message: "only" }), "only");
  assertEqual(flattenToolResponse({ message: "m", output: "o" }), '{"message":"m","output":"o"}');
  assertEqual(flattenToolResponse({ content: "c", output: "o" }), "c");
  assertEqual(flattenToolResponse({ content: [{ type: "text", text: "t" }] }), [{ type: "text", text: "t" }]);
  assertEqual(flattenToolResponse({ content: [{ type: "text", text: "a" }, "x", { type: "text", text: "b" }] }), "a\nb");
  assertEqual(flattenToolResponse({ content: ["x"], output: "o" }), "o");
  assertEqual(flattenToolResponse({ output: "o", status: "error" }), "o");
  assertEqual(flattenToolResponse({ files: [] }), "No files found");
  assertEqual(flattenToolResponse({ files: ["a.ts", 3, "b.ts"] }), "Found 2 files\na.ts\nb.ts");
  assertEqual(flattenToolResponse({ files: ["a.ts"] }), "Found 1 file\na.ts");
  assertEqual(flattenToolResponse({ killed: false }), "Failed to kill process (may have already exited)");
  assertEqual(flattenToolResponse({ error: "bad", success: false }), "bad");
  assertEqual(flattenToolResponse({ todos: [1] }), "Updated 1 todo");
  assertEqual(flattenToolResponse({ count: 2 }), '{"count":2}');
});

test("stdout and stderr pass through only as string arrays", () => {
  assertEqual(toolResultStreams({ stdout: ["a"], stderr: ["b", 1] }), { stdout: ["a"] });
  assertEqual(toolResultStreams("x"), {});
});

test("a throw becomes its message; an abort becomes Letta's interruption text", () => {
  assertEqual(thrownToolOutput(new TypeError("nope")), "nope");
  assertEqual(thrownToolOutput("raw"), "raw");
  const abort = new Error("stop");
  abort.name = "AbortError";
  assertEqual(thrownToolOutput(abort), INTERRUPTED_BY_USER);
  const controller = new AbortController();
  controller.abort();
  assertEqual(isAbortError(new Error("x"), controller.signal), true);
  assertEqual(isAbortError(new Error("The operation was aborted")), true);
});
