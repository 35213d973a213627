// What Letta Code makes of a mod tool's return value (reference §3.4): the
// status rule (getModToolStatus) and the content rule (flattenToolResponse).

import { isAborted } from "./abort.js";
import { errorText, guarded } from "./diagnostics.js";

/** What the model is told when a tool call was aborted. */
export const INTERRUPTED_BY_USER = "Interrupted by user";

function isRecord(value) {
  return typeof value === "object" && value !== null;
}

/** Text and image blocks: the one array shape passed on as content, unflattened. */
function isContentBlocks(value) {
  return value.every((item) => isRecord(item) && (item.type === "text" || item.type === "image"));
}

/** `error` iff `result` is an object with status "error", isError true or success false. */
export function toolResultStatus(result) {
  if (!isRecord(result)) return "success";
  if (result.status === "error" || result.isError === true || result.success === false) return "error";
  return "success";
}

/**
 * Letta's flattenToolResponse: a string, or content blocks. The first rule
 * that matches wins, in Letta's order.
 */
export function flattenToolResponse(result) {
  if (result === null || result === undefined) return "";
  if (typeof result === "string") return result;
  if (Array.isArray(result) && isContentBlocks(result)) return result;
  // JSON.stringify gives undefined for a function or symbol; nothing to show then.
  if (!isRecord(result)) return JSON.stringify(result) ?? "";
  if (typeof result.message === "string") {
    return Object.keys(result).length > 1 ? JSON.stringify(result) : result.message;
  }
  if (Array.isArray(result.content) && isContentBlocks(result.content)) return result.content;
  if (typeof result.content === "string") return result.content;
  if (Array.isArray(result.content)) {
    const text = result.content
      .filter((item) => isRecord(item) && item.type === "text" && typeof item.text === "string")
      .map((item) => item.text)
      .join("\n");
    if (text) return text;
  }
  if (typeof result.output === "string") return result.output;
  if (Array.isArray(result.files)) {
    const files = result.files.filter((file) => typeof file === "string");
    if (files.length === 0) return "No files found";
    return `Found ${files.length} file${files.length === 1 ? "" : "s"}\n${files.join("\n")}`;
  }
  if (typeof result.killed === "boolean") {
    return result.killed ? "Process killed successfully" : "Failed to kill process (may have already exited)";
  }
  if (typeof result.error === "string") return result.error;
  if (Array.isArray(result.todos)) return `Updated ${result.todos.length} todo${result.todos.length !== 1 ? "s" : ""}`;
  return JSON.stringify(result);
}

/** `stdout`/`stderr` string arrays, which Letta passes on beside the content. */
export function toolResultStreams(result) {
  const streams = {};
  if (!isRecord(result)) return streams;
  for (const key of ["stdout", "stderr"]) {
    const lines = result[key];
    if (Array.isArray(lines) && lines.every((line) => typeof line === "string")) streams[key] = [...lines];
  }
  return streams;
}

/** Letta's test for a thrown error that means the call was aborted. */
export function isAbortError(error, signal) {
  if (isAborted(signal)) return true;
  return guarded(
    () => error instanceof Error &&
      (error.name === "AbortError" || error.message === "The operation was aborted" || error.code === "ABORT_ERR"),
    false,
  );
}

/** The tool result of a `run` that threw: its message, or Letta's abort text. */
export function thrownToolOutput(error, signal) {
  if (isAbortError(error, signal)) return INTERRUPTED_BY_USER;
  return errorText(error);
}
