// The network as on a machine without one: every request fails the way Bun
// fails when the name does not resolve (or, for an address, nothing listens),
// and each attempt is an effect in the world's log.

import { recordEffect } from "../world.js";

function hostOf(input) {
  try {
    return new URL(String(input)).hostname;
  } catch {
    return String(input);
  }
}

/** The error Bun gives for a request to `target` with no network. */
export function networkError(target, { url, via, name = "TypeError" } = {}) {
  const host = String(target).replace(/^\[|\]$/g, "");
  const literal = /^[\d.]+$/.test(host) || host.includes(":") || host === "localhost";
  const error = literal
    ? new TypeError("ECONNREFUSED: Unable to connect. Is the computer able to access the url?")
    : new TypeError(`getaddrinfo ENOTFOUND ${host}`);
  if (name !== "TypeError") Object.defineProperty(error, "name", { value: name, configurable: true, writable: true });
  if (literal) Object.assign(error, { code: "ECONNREFUSED", path: url ?? host, errno: 0 });
  else Object.assign(error, { code: "ENOTFOUND", ...(url ? { path: url } : {}), syscall: "getaddrinfo", hostname: host, errno: 4 });
  recordEffect({ kind: "network", target: url ?? host, via });
  return error;
}

/** `fetch`, which never reaches anything. */
export function fetch(input, _init) {
  const url = typeof input === "object" && input !== null && "url" in input ? String(input.url) : String(input);
  return Promise.reject(networkError(hostOf(url), { url, via: "fetch" }));
}
