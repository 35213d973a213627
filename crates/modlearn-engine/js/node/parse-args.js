// node:util parseArgs, shaped after Bun 1.4.5's native implementation (not Node's JS):
// Bun's messages ("... property must be of type boolean, got number"), its token key order,
// its per-token interleaving of tokenizing and checking, and its quirks are kept on purpose,
// since Bun is the reference these modules are compared against.

// Bun reports a type with typeof, except that arrays are "array".
function typeName(value) {
  return Array.isArray(value) ? "array" : typeof value;
}

function codedTypeError(code, message) {
  const error = new TypeError(wellFormed(message));
  error.code = code;
  return error;
}

// Bun builds its messages in UTF-8, so an unpaired surrogate comes out as U+FFFD.
function wellFormed(text) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i] + text[i + 1];
        i++;
        continue;
      }
      out += "\ufffd";
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      out += "\ufffd";
    } else {
      out += text[i];
    }
  }
  return out;
}

// String conversion as the engine does it, with JSC's wording for a symbol.
function toStr(value) {
  if (typeof value === "symbol") throw new TypeError("Cannot convert a symbol to a string");
  return String(value);
}

function invalidType(name, expected, value) {
  return codedTypeError("ERR_INVALID_ARG_TYPE", `The "${name}" property must be of type ${expected}, got ${typeName(value)}`);
}

function validateBoolean(value, name) {
  if (typeof value !== "boolean") throw invalidType(name, "boolean", value);
  return value;
}

function validateString(value, name) {
  if (typeof value !== "string") throw invalidType(name, "string", value);
}

function validateArray(value, name) {
  if (!Array.isArray(value)) {
    throw codedTypeError("ERR_INVALID_ARG_TYPE", `The "${name}" property must be an instance of Array, got ${typeName(value)}`);
  }
}

// Bun names the whole array's type (not the element's) when an element is wrong.
function validateArrayOf(value, name, kind) {
  validateArray(value, name);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== kind) throw invalidType(`${name}[${i}]`, kind, value);
  }
}

// Functions pass as objects, as in Bun; null and arrays do not.
function validateObject(value, name) {
  if (value === null || Array.isArray(value) || (typeof value !== "object" && typeof value !== "function")) {
    throw invalidType(name, "object", value);
  }
}

const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// An own property of an object (or function); a primitive config has none.
function getOwn(object, key) {
  if (object === null || (typeof object !== "object" && typeof object !== "function")) return undefined;
  return hasOwn(object, key) ? object[key] : undefined;
}

function readOptionDefinitions(options) {
  validateObject(options, "options");
  const definitions = [];
  for (const longName of Object.keys(options)) {
    const config = options[longName];
    validateObject(config, `options.${longName}`);
    // The type is compared after string conversion, so `{ toString() { return "string" } }` passes.
    const rawType = getOwn(config, "type");
    const typeText = toStr(rawType);
    if (typeText !== "string" && typeText !== "boolean") {
      throw codedTypeError("ERR_INVALID_ARG_TYPE", `options.${longName}.type must be one of: boolean|string`);
    }
    const definition = { longName, shortName: "", type: typeText, multiple: false, defaultValue: undefined, hasDefault: false };
    if (hasOwn(config, "short")) {
      const short = config.short;
      validateString(short, `options.${longName}.short`);
      if (short.length !== 1) {
        throw codedTypeError("ERR_INVALID_ARG_VALUE", `options.${longName}.short must be a single character`);
      }
      definition.shortName = short;
    }
    if (hasOwn(config, "multiple")) {
      const multiple = config.multiple;
      if (multiple !== undefined) definition.multiple = validateBoolean(multiple, `options.${longName}.multiple`);
    }
    if (hasOwn(config, "default")) {
      const value = config.default;
      if (value !== undefined) {
        const name = `options.${longName}.default`;
        if (definition.multiple) validateArrayOf(value, name, typeText);
        else if (typeText === "string") validateString(value, name);
        else validateBoolean(value, name);
        definition.defaultValue = value;
        definition.hasDefault = true;
      }
    }
    definitions.push(definition);
  }
  return definitions;
}

// A configured short name wins; otherwise the last option whose long name is that one character.
function findByShort(char, definitions) {
  let byLongName = -1;
  for (let i = 0; i < definitions.length; i++) {
    if (definitions[i].shortName === char) return i;
    if (definitions[i].longName === char) byLongName = i;
  }
  return byLongName;
}

function findByLong(name, definitions) {
  for (let i = 0; i < definitions.length; i++) if (definitions[i].longName === name) return i;
  return -1;
}

function classify(arg, definitions) {
  const length = arg.length;
  if (length === 2) {
    if (arg[0] === "-") return arg[1] === "-" ? "terminator" : "loneShort";
  } else if (length > 2) {
    if (arg[0] === "-" && arg[1] === "-") {
      const eq = arg.indexOf("=");
      return eq >= 3 ? "longAndValue" : "loneLong";
    }
    if (arg[0] === "-") {
      const index = findByShort(arg[1], definitions);
      return index !== -1 && definitions[index].type === "string" ? "shortAndValue" : "shortGroup";
    }
  }
  return "positional";
}

// Bun's native parser formats a group member's raw name as UTF-8, so a lone surrogate reads U+FFFD.
function groupRawName(char) {
  return `-${wellFormed(char)}`;
}

/**
 * util.parseArgs(config). `defaultArgs` stands in for process.argv's user part when `config.args`
 * is undefined or null (the sandbox's caller passes it; Bun would read process.argv itself).
 */
export function parseArgs(config, defaultArgs = []) {
  // Bun reads properties off the config through JSC, which throws for null.
  if (config === null) throw new TypeError("null is not an object");
  const configArgs = getOwn(config, "args");
  let args;
  if (configArgs === undefined || configArgs === null) {
    args = defaultArgs;
  } else {
    validateArray(configArgs, "args");
    args = configArgs;
  }
  // Absent, undefined and null settings all take their defaults.
  const pick = (key, fallback) => {
    const value = getOwn(config, key);
    return value === undefined || value === null ? fallback : value;
  };
  const strict = validateBoolean(pick("strict", true), "strict");
  const allowPositionals = validateBoolean(pick("allowPositionals", !strict), "allowPositionals");
  const returnTokens = validateBoolean(pick("tokens", false), "tokens");
  const allowNegative = validateBoolean(pick("allowNegative", false), "allowNegative");
  const optionsValue = getOwn(config, "options");
  const definitions = optionsValue === undefined || optionsValue === null ? [] : readOptionDefinitions(optionsValue);

  const values = Object.create(null);
  const positionals = [];
  const tokens = returnTokens ? [] : undefined;

  const unknownOption = (rawName) =>
    codedTypeError(
      "ERR_PARSE_ARGS_UNKNOWN_OPTION",
      allowPositionals
        ? `Unknown option '${rawName}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "${rawName}"`
        : `Unknown option '${rawName}'`,
    );

  // token: { index, name, rawName (token value), messageName (for errors), optionIndex,
  //          value, hasValueRef, inlineValue, rawArg (string), negative }
  const checkUsage = (token) => {
    if (token.optionIndex === -1) throw unknownOption(token.messageName);
    const option = definitions[token.optionIndex];
    const shortAndLong = `${option.shortName ? `-${option.shortName}, ` : ""}--${token.name}`;
    if (option.type === "string") {
      if (typeof token.value !== "string") {
        // A `--no-x` that found a string option `x` is reported as the unknown option it was.
        if (token.negative) throw codedTypeError("ERR_PARSE_ARGS_UNKNOWN_OPTION", `Unknown option '${token.messageName}'`);
        throw codedTypeError("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '${shortAndLong} <value>' argument missing`);
      }
    } else if (token.value !== undefined) {
      throw codedTypeError("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '${shortAndLong}' does not take an argument`);
    }
  };

  const checkOptionLike = (token) => {
    if (token.inlineValue) return;
    const text = toStr(token.value);
    if (!(text.length > 1 && text[0] === "-")) return;
    const raw = token.messageName;
    const example = token.rawArg.startsWith("--") ? `'${raw}=-XYZ'` : `'--${token.name}=-XYZ' or '${raw}-XYZ'`;
    throw codedTypeError(
      "ERR_PARSE_ARGS_INVALID_OPTION_VALUE",
      `Option '${raw}' argument is ambiguous.\nDid you forget to specify the option argument for '${raw}'?\nTo specify an option argument starting with a dash use ${example}.`,
    );
  };

  const store = (token) => {
    const key = token.name;
    if (key === "__proto__") return;
    const newValue = token.value === undefined ? !token.negative : token.value;
    const multiple = token.optionIndex !== -1 && definitions[token.optionIndex].multiple;
    if (multiple) {
      if (hasOwn(values, key)) values[key].push(newValue);
      else values[key] = [newValue];
    } else {
      values[key] = newValue;
    }
  };

  const handleOption = (token) => {
    if (strict) {
      checkUsage(token);
      checkOptionLike(token);
    }
    store(token);
    if (tokens) {
      // A value-less option token still carries `value` and `inlineValue`, both undefined.
      tokens.push({
        kind: "option",
        name: token.name,
        rawName: token.rawName,
        index: token.index,
        value: token.value,
        inlineValue: token.value === undefined ? undefined : token.inlineValue,
      });
    }
  };

  const handlePositional = (index, value) => {
    if (!allowPositionals) {
      throw codedTypeError(
        "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL",
        `Unexpected argument '${toStr(value)}'. This command does not take positional arguments`,
      );
    }
    positionals.push(value);
    if (tokens) tokens.push({ kind: "positional", index, value });
  };

  const count = args.length;
  for (let index = 0; index < count; index++) {
    // Positionals and consumed values keep the original element; classification uses its string.
    const argValue = args[index];
    const arg = toStr(argValue);
    switch (classify(arg, definitions)) {
      case "terminator": {
        if (tokens) tokens.push({ kind: "option-terminator", index });
        for (index++; index < count; index++) handlePositional(index, args[index]);
        break;
      }
      case "loneShort": {
        const char = arg[1];
        const optionIndex = findByShort(char, definitions);
        const isString = optionIndex !== -1 && definitions[optionIndex].type === "string";
        // Bun takes the next element whatever it is (even undefined or an option-like string).
        const consumes = isString && index + 1 < count;
        handleOption({
          index,
          name: optionIndex !== -1 ? definitions[optionIndex].longName : char,
          rawName: argValue,
          messageName: arg,
          rawArg: arg,
          optionIndex,
          value: consumes ? args[index + 1] : undefined,
          inlineValue: !consumes,
          negative: false,
        });
        if (consumes) index++;
        break;
      }
      case "shortGroup": {
        const start = index;
        for (let at = 1; at < arg.length; at++) {
          const char = arg[at];
          const optionIndex = findByShort(char, definitions);
          const isString = optionIndex !== -1 && definitions[optionIndex].type === "string";
          const name = optionIndex !== -1 ? definitions[optionIndex].longName : char;
          // A string option ends the group: it takes the rest of the group, or the next argument.
          const restless = !isString || at === arg.length - 1;
          const consumes = restless && isString && index + 1 < count;
          handleOption({
            index: start,
            name,
            rawName: groupRawName(char),
            // Bun's error text for a group member is the bare character, without its dash.
            messageName: char,
            rawArg: arg,
            optionIndex,
            value: consumes ? args[index + 1] : restless ? undefined : arg.slice(at + 1),
            inlineValue: !consumes,
            negative: false,
          });
          if (consumes) index++;
          if (!restless) break;
        }
        break;
      }
      case "shortAndValue": {
        const char = arg[1];
        const optionIndex = findByShort(char, definitions);
        handleOption({
          index,
          name: optionIndex !== -1 ? definitions[optionIndex].longName : char,
          rawName: arg.slice(0, 2),
          messageName: arg.slice(0, 2),
          rawArg: arg.slice(0, 2),
          optionIndex,
          value: arg.slice(2),
          inlineValue: true,
          negative: false,
        });
        break;
      }
      case "loneLong": {
        let name = arg.slice(2);
        const negative = allowNegative && name.startsWith("no-");
        if (negative) name = name.slice(3);
        const optionIndex = findByLong(name, definitions);
        const isString = optionIndex !== -1 && definitions[optionIndex].type === "string";
        const consumes = isString && index + 1 < count && !negative;
        handleOption({
          index,
          name,
          rawName: argValue,
          messageName: arg,
          rawArg: arg,
          optionIndex,
          value: consumes ? args[index + 1] : undefined,
          inlineValue: !consumes,
          negative,
        });
        if (consumes) index++;
        break;
      }
      case "longAndValue": {
        const eq = arg.indexOf("=");
        const name = arg.slice(2, eq);
        handleOption({
          index,
          name,
          rawName: arg.slice(0, eq),
          messageName: arg.slice(0, eq),
          rawArg: arg,
          optionIndex: findByLong(name, definitions),
          value: arg.slice(eq + 1),
          inlineValue: true,
          negative: false,
        });
        break;
      }
      default:
        handlePositional(index, argValue);
    }
  }

  // Defaults fill options that no argument set; the default object itself is stored, not a copy.
  for (const definition of definitions) {
    if (definition.hasDefault && definition.longName !== "__proto__" && !hasOwn(values, definition.longName)) {
      values[definition.longName] = definition.defaultValue;
    }
  }

  const result = { values, positionals };
  if (tokens) result.tokens = tokens;
  return result;
}

export default parseArgs;
