// Exports an object instead of a factory: Pi does not load it.
export default { name: "not a factory", tools: [] };
