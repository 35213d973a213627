// `@mariozechner/pi-coding-agent` (and `@earendil-works/pi-coding-agent`) as an
// extension imports it at run time: the event type guards and the output
// truncation helpers. Types are erased before a candidate runs; TUI
// components are not provided (no extension under evaluation has a UI).

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

/** Whether `event` is a `tool_call` for `toolName`; narrows `event.input` in TypeScript. */
export function isToolCallEventType(toolName, event) {
  return event != null && event.type === "tool_call" && event.toolName === toolName;
}

function resultOf(toolName) {
  return (event) => event != null && event.type === "tool_result" && event.toolName === toolName;
}

export const isBashToolResult = resultOf("bash");
export const isReadToolResult = resultOf("read");
export const isEditToolResult = resultOf("edit");
export const isWriteToolResult = resultOf("write");
export const isGrepToolResult = resultOf("grep");
export const isFindToolResult = resultOf("find");
export const isLsToolResult = resultOf("ls");

export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

const byteLength = (text) => new TextEncoder().encode(text).length;

function truncate(content, options, fromEnd) {
  const maxLines = options?.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = String(content).split("\n");
  const totalLines = lines.length;
  const totalBytes = byteLength(String(content));
  const kept = [];
  let bytes = 0;
  let truncatedBy = null;
  const order = fromEnd ? [...lines].reverse() : lines;
  for (const line of order) {
    if (kept.length >= maxLines) {
      truncatedBy = "lines";
      break;
    }
    const size = byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(line);
    bytes += size;
  }
  const text = (fromEnd ? kept.reverse() : kept).join("\n");
  return {
    content: text,
    truncated: truncatedBy !== null,
    truncatedBy,
    totalLines,
    totalBytes,
    outputLines: kept.length,
    outputBytes: byteLength(text),
    maxLines,
    maxBytes,
  };
}

/** The first lines of `content` within the limits. */
export function truncateHead(content, options) {
  return truncate(content, options, false);
}

/** The last lines of `content` within the limits. */
export function truncateTail(content, options) {
  return truncate(content, options, true);
}
