// `@deepseek-ai/dsh-llm` as plugins import it: DSH's error type and message helper.
export { HarnessError } from "../../vendor/dsh.js";

/** A user message of plain text, the shape DSH's agent inbox holds. */
export function createUserMessage(text) {
  return { role: "user", content: [{ type: "text", text: String(text) }] };
}
