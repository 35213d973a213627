// `@sinclair/typebox` (and `typebox`, its newer name), the real package, vendored.
export * from "../../vendor/typebox.js";
