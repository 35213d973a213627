// node:http, node:https and node:net as on a machine without a network:
// requests and connections emit the error Bun gives when the name does not
// resolve; servers cannot listen. Every attempt is an effect.

import { EventEmitter } from "./events.js";
import { networkError } from "../web/network.js";
import { queueHostTask } from "../platform.js";

function targetOf(input, options) {
  if (typeof input === "string" || input instanceof URL) {
    const url = new URL(String(input));
    return { host: url.hostname, url: url.href };
  }
  const opts = { ...(input ?? {}), ...(options ?? {}) };
  const host = opts.hostname ?? opts.host ?? "localhost";
  return { host, url: undefined };
}

function failingRequest(scheme, input, options, via) {
  const { host, url } = targetOf(input, typeof options === "object" ? options : undefined);
  const request = new EventEmitter();
  const error = networkError(host, { url: url ?? `${scheme}://${host}/`, via, name: "Error" });
  Object.assign(request, {
    write: () => true,
    end: () => request,
    setHeader() {},
    getHeader() {},
    removeHeader() {},
    setTimeout: () => request,
    abort() {},
    destroy: () => request,
    destroyed: false,
  });
  queueHostTask(() => request.emit("error", error), "io");
  return request;
}

function listenRefused(via) {
  const server = new EventEmitter();
  server.listen = (...args) => {
    const error = new Error("listen EACCES: permission denied");
    Object.assign(error, { code: "EACCES", errno: -13, syscall: "listen" });
    const port = typeof args[0] === "object" && args[0] !== null ? args[0].port : args[0];
    networkError("localhost", { url: `listen ${port ?? 0}`, via });
    queueHostTask(() => server.emit("error", error), "io");
    return server;
  };
  server.close = (callback) => {
    if (typeof callback === "function") queueMicrotask(callback);
    return server;
  };
  server.address = () => null;
  return server;
}

export function module(scheme) {
  const request = (input, options, _callback) => failingRequest(scheme, input, options, `${scheme}.request`);
  const get = (input, options, callback) => {
    const req = request(input, options, callback);
    req.end();
    return req;
  };
  return {
    request,
    get,
    createServer: () => listenRefused(`${scheme}.createServer`),
    Agent: class Agent {},
    globalAgent: {},
    STATUS_CODES: { 200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error" },
    METHODS: ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"],
  };
}

export function netModule() {
  const connect = (...args) => {
    const options = typeof args[0] === "object" ? args[0] : { port: args[0], host: typeof args[1] === "string" ? args[1] : "localhost" };
    const socket = new EventEmitter();
    const error = networkError(options.host ?? "localhost", { url: `${options.host ?? "localhost"}:${options.port}`, via: "net.connect" });
    Object.assign(socket, { write: () => false, end: () => socket, destroy: () => socket, setTimeout: () => socket, setEncoding: () => socket, setKeepAlive: () => socket, setNoDelay: () => socket });
    queueHostTask(() => socket.emit("error", error), "io");
    return socket;
  };
  return {
    connect,
    createConnection: connect,
    createServer: () => listenRefused("net.createServer"),
    isIP: (text) => (/^(\d{1,3}\.){3}\d{1,3}$/.test(String(text)) ? 4 : String(text).includes(":") ? 6 : 0),
    isIPv4: (text) => /^(\d{1,3}\.){3}\d{1,3}$/.test(String(text)),
    isIPv6: (text) => String(text).includes(":"),
    Socket: class Socket extends EventEmitter {},
  };
}
