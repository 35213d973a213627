// node:dns and node:dns/promises on a machine without a network: `localhost` and address
// literals resolve (lookup), every other query fails with ENOTFOUND the way Bun reports it,
// and each attempt at a name beyond the machine is a network effect in the world's log.
// Callbacks run on a later turn of the loop, as finished I/O does in Bun.

import { callMod, queueHostTask, settleAsIo, watchCollection } from "../platform.js";
import { recordEffect } from "../world.js";

export const ADDRCONFIG = 32;
export const V4MAPPED = 8;
export const ALL = 16;

const CODES = [
  "NODATA", "FORMERR", "SERVFAIL", "NOTFOUND", "NOTIMP", "REFUSED", "BADQUERY", "BADNAME", "BADFAMILY", "BADRESP", "CONNREFUSED",
  "TIMEOUT", "EOF", "FILE", "NOMEM", "DESTRUCTION", "BADSTR", "BADFLAGS", "NONAME", "BADHINTS", "NOTINITIALIZED",
  "LOADIPHLPAPI", "ADDRGETNETWORKPARAMS", "CANCELLED",
];
const codes = Object.fromEntries(CODES.map((name) => [name, `E${name}`]));
export const {
  NODATA, FORMERR, SERVFAIL, NOTFOUND, NOTIMP, REFUSED, BADQUERY, BADNAME, BADFAMILY, BADRESP, CONNREFUSED, TIMEOUT, EOF, FILE,
  NOMEM, DESTRUCTION, BADSTR, BADFLAGS, NONAME, BADHINTS, NOTINITIALIZED, LOADIPHLPAPI, ADDRGETNETWORKPARAMS, CANCELLED,
} = codes;

/** What an Ubuntu machine's resolv.conf names (systemd-resolved's stub); nothing answers there. */
const DEFAULT_SERVERS = ["127.0.0.53"];
let servers = [...DEFAULT_SERVERS];
let resultOrder = "verbatim";

const RRTYPES = {
  A: "queryA", AAAA: "queryAaaa", ANY: "queryAny", CAA: "queryCaa", CNAME: "queryCname", MX: "queryMx", NAPTR: "queryNaptr",
  NS: "queryNs", PTR: "queryPtr", SOA: "querySoa", SRV: "querySrv", TXT: "queryTxt",
};

function argError(name, expected, value) {
  const received = value === null ? "null" : value === undefined ? "undefined" : `type ${typeof value} (${String(value)})`;
  const error = new TypeError(`The "${name}" argument must be ${expected}. Received ${received}`);
  Object.defineProperty(error, "code", { value: "ERR_INVALID_ARG_TYPE", enumerable: false, configurable: true, writable: true });
  return error;
}

const isIPv4 = (text) => /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(text);
const isIPv6 = (text) => /^[0-9a-fA-F:.]+$/.test(text) && text.includes(":") && (text.match(/::/g) ?? []).length <= 1;
const isLocalhost = (name) => /^localhost\.?$/i.test(name) || /\.localhost\.?$/i.test(name);

/** Bun's DNSException: a plain Error named so, with its keys in Bun's order. */
function dnsError(syscall, hostname, { withHost = true, queryOrder = false } = {}) {
  const error = new Error(withHost ? `${syscall} ENOTFOUND ${hostname}` : `${syscall} ENOTFOUND`);
  error.code = "ENOTFOUND";
  error.syscall = syscall;
  if (queryOrder) {
    error.hostname = hostname;
    error.errno = 4;
    error.name = "DNSException";
  } else {
    error.errno = 4;
    error.name = "DNSException";
    if (withHost) error.hostname = hostname;
  }
  return error;
}

function attempt(target, via) {
  recordEffect({ kind: "network", target, via });
}

function familyOf(options) {
  if (typeof options === "number") return options;
  const family = options?.family;
  if (family === "IPv4") return 4;
  if (family === "IPv6") return 6;
  return Number(family ?? 0) || 0;
}

/** The answers lookup gives, or null when the name does not resolve here. */
function lookupAnswers(hostname, options) {
  const family = familyOf(options);
  // An address is its own answer, whatever family was asked for (as in Bun).
  if (isIPv4(hostname)) return [{ address: hostname, family: 4 }];
  if (isIPv6(hostname)) return [{ address: hostname, family: 6 }];
  if (!isLocalhost(hostname)) return null;
  const answers = [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }];
  const order = options?.order ?? (options?.verbatim === false ? "ipv4first" : resultOrder);
  if (order === "ipv6first") answers.reverse();
  return answers.filter((answer) => family === 0 || answer.family === family);
}

function checkHostname(hostname) {
  if (typeof hostname !== "string") throw argError("hostname", "of type string", hostname);
}

function later(callback, args) {
  queueHostTask(() => callMod(callback, undefined, args), "io");
}

export function lookup(hostname, options, callback) {
  if (typeof options === "function") {
    callback = options;
    options = {};
  }
  checkHostname(hostname);
  if (typeof callback !== "function") throw argError("callback", "of type function", callback);
  const answers = lookupAnswers(hostname, options);
  if (answers === null || answers.length === 0) {
    if (answers === null && !isLocalhost(hostname)) attempt(hostname, "dns.lookup");
    return later(callback, [dnsError("getaddrinfo", hostname), null, null]);
  }
  if (options?.all) later(callback, [null, answers]);
  else later(callback, [null, answers[0].address, answers[0].family]);
}

export function lookupService(address, port, callback) {
  if (typeof address !== "string") throw argError("address", "of type string", address);
  if (typeof callback !== "function") throw argError("callback", "of type function", callback);
  const services = { 21: "ftp", 22: "ssh", 25: "smtp", 53: "domain", 80: "http", 443: "https" };
  if (address === "127.0.0.1" || address === "::1") return later(callback, [null, "localhost", services[port] ?? String(port)]);
  attempt(address, "dns.lookupService");
  later(callback, [dnsError("getnameinfo", address)]);
}

function queryFailure(syscall, hostname, via) {
  if (!isLocalhost(hostname)) attempt(hostname, via);
  return dnsError(syscall, hostname, { queryOrder: true });
}

function resolveWith(syscall, via) {
  return function query(hostname, options, callback) {
    if (typeof options === "function") callback = options;
    checkHostname(hostname);
    if (typeof callback !== "function") throw argError("callback", "of type function", callback);
    later(callback, [queryFailure(syscall, hostname, via)]);
  };
}

export function resolve(hostname, rrtype, callback) {
  if (typeof rrtype === "function") {
    callback = rrtype;
    rrtype = "A";
  }
  checkHostname(hostname);
  const syscall = RRTYPES[rrtype ?? "A"];
  if (syscall === undefined) {
    const error = new TypeError(`The argument 'rrtype' is invalid. Received '${rrtype}'`);
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  if (typeof callback !== "function") throw argError("callback", "of type function", callback);
  later(callback, [queryFailure(syscall, hostname, "dns.resolve")]);
}

export const resolve4 = resolveWith("queryA", "dns.resolve4");
export const resolve6 = resolveWith("queryAaaa", "dns.resolve6");
export const resolveAny = resolveWith("queryAny", "dns.resolveAny");
export const resolveCaa = resolveWith("queryCaa", "dns.resolveCaa");
export const resolveCname = resolveWith("queryCname", "dns.resolveCname");
export const resolveMx = resolveWith("queryMx", "dns.resolveMx");
export const resolveNaptr = resolveWith("queryNaptr", "dns.resolveNaptr");
export const resolveNs = resolveWith("queryNs", "dns.resolveNs");
export const resolvePtr = resolveWith("queryPtr", "dns.resolvePtr");
export const resolveSoa = resolveWith("querySoa", "dns.resolveSoa");
export const resolveSrv = resolveWith("querySrv", "dns.resolveSrv");
export const resolveTxt = resolveWith("queryTxt", "dns.resolveTxt");

export function reverse(ip, callback) {
  if (typeof ip !== "string") throw argError("ip", "of type string", ip);
  if (typeof callback !== "function") throw argError("callback", "of type function", callback);
  attempt(ip, "dns.reverse");
  later(callback, [dnsError("getHostByAddr", ip, { queryOrder: true })]);
}

function checkServers(list) {
  if (!Array.isArray(list)) throw argError("servers", "an instance of Array", list);
  return list.map((server) => {
    if (typeof server !== "string") throw argError("servers[0]", "of type string", server);
    const host = server.replace(/^\[([^\]]+)\](:\d+)?$/, "$1").replace(/^([\d.]+):\d+$/, "$1");
    if (!isIPv4(host) && !isIPv6(host)) {
      const error = new TypeError(`Invalid IP address: ${server}`);
      error.code = "ERR_INVALID_IP_ADDRESS";
      throw error;
    }
    return server;
  });
}

// The module's resolver list is every generation's: one a load grows, the next one inherits.
watchCollection("node:dns servers", () => servers);
export const getServers = () => [...servers];
export function setServers(list) {
  servers = checkServers(list);
}
export const getDefaultResultOrder = () => resultOrder;
export function setDefaultResultOrder(order) {
  if (!["ipv4first", "ipv6first", "verbatim"].includes(order)) {
    const error = new TypeError(`The argument 'dnsOrder' must be one of: 'verbatim', 'ipv4first', 'ipv6first'. Received '${order}'`);
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  resultOrder = order;
}

const CALLBACK_QUERIES = {
  resolve, resolve4, resolve6, resolveAny, resolveCaa, resolveCname, resolveMx, resolveNaptr, resolveNs, resolvePtr, resolveSoa,
  resolveSrv, resolveTxt, reverse,
};

export class Resolver {
  #servers = [...DEFAULT_SERVERS];
  constructor(_options) {}
  cancel() {}
  getServers() {
    return [...this.#servers];
  }
  setServers(list) {
    this.#servers = checkServers(list);
  }
  setLocalAddress() {}
}
for (const [name, fn] of Object.entries(CALLBACK_QUERIES)) {
  Object.defineProperty(Resolver.prototype, name, { value: fn, writable: true, configurable: true });
}

// The promise API (node:dns/promises is `dns.promises`).
const promisified = (fn) => (...args) => new Promise((resolvePromise, reject) => {
  fn(...args, (error, ...values) => (error ? reject(error) : resolvePromise(values[0])));
});

/** Settles on a later turn of the loop, as Bun's lookup (off the thread) does. */
function lookupPromise(hostname, options = {}) {
  checkHostname(hostname);
  return settleAsIo(() => {
    const answers = lookupAnswers(hostname, options);
    if (answers === null || answers.length === 0) {
      if (answers === null && !isLocalhost(hostname)) attempt(hostname, "dns.promises.lookup");
      // Bun's promise form leaves the name out of the message and the error.
      throw dnsError("getaddrinfo", hostname, { withHost: false });
    }
    return options?.all ? answers : answers[0];
  });
}

function lookupServicePromise(address, port) {
  return new Promise((resolvePromise, reject) => {
    lookupService(address, port, (error, hostname, service) => (error ? reject(error) : resolvePromise({ hostname, service })));
  });
}

const PROMISE_QUERIES = Object.fromEntries(Object.entries(CALLBACK_QUERIES).map(([name, fn]) => [name, promisified(fn)]));

class PromiseResolver extends Resolver {}
for (const [name, fn] of Object.entries(PROMISE_QUERIES)) {
  Object.defineProperty(PromiseResolver.prototype, name, { value: fn, writable: true, configurable: true });
}
Object.defineProperty(PromiseResolver, "name", { value: "Resolver" });

export const promises = {
  ...codes,
  lookup: lookupPromise,
  lookupService: lookupServicePromise,
  resolve: PROMISE_QUERIES.resolve,
  resolve4: PROMISE_QUERIES.resolve4,
  resolve6: PROMISE_QUERIES.resolve6,
  resolveAny: PROMISE_QUERIES.resolveAny,
  resolveSrv: PROMISE_QUERIES.resolveSrv,
  resolveTxt: PROMISE_QUERIES.resolveTxt,
  resolveSoa: PROMISE_QUERIES.resolveSoa,
  resolveNaptr: PROMISE_QUERIES.resolveNaptr,
  resolveMx: PROMISE_QUERIES.resolveMx,
  resolveCaa: PROMISE_QUERIES.resolveCaa,
  resolveNs: PROMISE_QUERIES.resolveNs,
  resolvePtr: PROMISE_QUERIES.resolvePtr,
  resolveCname: PROMISE_QUERIES.resolveCname,
  reverse: PROMISE_QUERIES.reverse,
  Resolver: PromiseResolver,
  getDefaultResultOrder,
  setDefaultResultOrder,
  getServers,
  setServers,
};

export default {
  ADDRCONFIG, ALL, V4MAPPED, ...codes,
  lookup, lookupService, Resolver, setServers, setDefaultResultOrder, getDefaultResultOrder, resolve, reverse, resolve4,
  resolve6, resolveAny, resolveCname, resolveCaa, resolveMx, resolveNs, resolvePtr, resolveSoa, resolveSrv, resolveTxt,
  resolveNaptr, promises, getServers,
};
