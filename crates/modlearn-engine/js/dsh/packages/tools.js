// `@deepseek-ai/dsh-tools` as plugins import it: DSH's own `defineTool` and schema helpers.
export { defineTool, ToolArgsError, validateJsonSchemaValue, assertSupportedJsonSchema } from "../../vendor/dsh.js";
