// `@deepseek-ai/schemastery`: Cordis's config schema library.
export { Schema as default } from "../../vendor/dsh.js";
