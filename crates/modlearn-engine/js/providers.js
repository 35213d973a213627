// Validation of `letta.providers.register(name, config)`: Letta throws into
// the mod for any malformed field, so a port must too.

const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
const INPUTS = new Set(["text", "image"]);

function fail(name, message) {
  throw new Error(`Provider '${name}' ${message}`);
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function checkModel(name, config, model, index, seen) {
  const where = `models[${index}]`;
  if (!isPlainObject(model)) fail(name, `${where} must be an object`);
  if (typeof model.id !== "string" || model.id.trim() === "") fail(name, `${where}.id must be a non-empty string`);
  if (model.id.includes("/")) fail(name, `${where}.id must not contain '/'`);
  if (seen.has(model.id)) fail(name, `${where}.id '${model.id}' is not unique`);
  seen.add(model.id);
  if (typeof model.name !== "string" || model.name.trim() === "") fail(name, `${where}.name must be a non-empty string`);
  const api = model.api ?? config.api;
  if (typeof api !== "string" || api.trim() === "") fail(name, `${where}.api (or the provider's api) must be a non-empty string`);
  if (typeof model.reasoning !== "boolean") fail(name, `${where}.reasoning must be a boolean`);
  if (!Array.isArray(model.input) || model.input.length === 0 || !model.input.every((i) => INPUTS.has(i))) {
    fail(name, `${where}.input must be a non-empty array of "text" and "image"`);
  }
  if (!isPlainObject(model.cost)) fail(name, `${where}.cost must be an object`);
  for (const key of ["input", "output", "cacheRead", "cacheWrite"]) {
    const value = model.cost[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      fail(name, `${where}.cost.${key} must be a finite non-negative number`);
    }
  }
  for (const key of ["contextWindow", "maxTokens"]) {
    if (!Number.isInteger(model[key]) || model[key] <= 0) fail(name, `${where}.${key} must be a positive integer`);
  }
}

/** Throws the first problem with a provider registration, as Letta does. */
export function validateProvider(name, config) {
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw new Error(`Provider name '${String(name)}' must match /^[a-z0-9][a-z0-9._-]*$/`);
  }
  if (!isPlainObject(config)) fail(name, "config must be an object");
  if (config.headers !== undefined) {
    if (!isPlainObject(config.headers) || !Object.values(config.headers).every((v) => typeof v === "string")) {
      fail(name, "headers must map strings to strings");
    }
  }
  if (config.connect !== undefined && typeof config.connect !== "boolean") {
    const fields = isPlainObject(config.connect) ? config.connect.fields : undefined;
    const valid =
      Array.isArray(fields) &&
      fields.every(
        (f) =>
          isPlainObject(f) &&
          typeof f.key === "string" &&
          typeof f.label === "string" &&
          (f.placeholder === undefined || typeof f.placeholder === "string") &&
          (f.secret === undefined || typeof f.secret === "boolean"),
      );
    if (!valid) fail(name, "connect must be a boolean or { fields: [{ key, label, placeholder?, secret? }] }");
  }
  if (config.oauth !== undefined) {
    const oauth = config.oauth;
    if (!isPlainObject(oauth) || !["login", "refreshToken", "getApiKey"].every((k) => typeof oauth[k] === "function")) {
      fail(name, "oauth must provide login, refreshToken and getApiKey functions");
    }
  }
  if (config.listModels !== undefined && typeof config.listModels !== "function") fail(name, "listModels must be a function");
  if (config.authHeader !== undefined && typeof config.authHeader !== "boolean") fail(name, "authHeader must be a boolean");
  if (config.models !== undefined) {
    if (!Array.isArray(config.models)) fail(name, "models must be an array");
    const seen = new Set();
    config.models.forEach((model, index) => checkModel(name, config, model, index, seen));
  }
}
