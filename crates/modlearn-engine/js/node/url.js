// node:url: the WHATWG URL classes, file URL conversion, and the legacy
// `parse`/`format` built on the WHATWG parser.

import { URL, URLSearchParams } from "../web/url.js";
import { resolvePath } from "../world.js";

function invalidArg(message, code = "ERR_INVALID_ARG_TYPE") {
  const error = new TypeError(message);
  error.code = code;
  return error;
}

export function fileURLToPath(input) {
  const url = typeof input === "string" ? new URL(input) : input;
  if (!(url instanceof URL)) throw invalidArg(`The "path" argument must be of type string or an instance of URL. Received ${typeof input}`);
  if (url.protocol !== "file:") throw invalidArg("The URL must be of scheme file", "ERR_INVALID_URL_SCHEME");
  if (url.hostname !== "") throw invalidArg(`File URL host must be "localhost" or empty on linux`, "ERR_INVALID_FILE_URL_HOST");
  if (/%2f/i.test(url.pathname)) throw invalidArg("File URL path must not include encoded / characters", "ERR_INVALID_FILE_URL_PATH");
  return decodeURIComponent(url.pathname);
}

export function pathToFileURL(path) {
  let absolute = resolvePath(String(path));
  if (String(path).endsWith("/") && absolute !== "/") absolute += "/";
  const url = new URL("file://");
  url.pathname = absolute.replace(/%/g, "%25").replace(/\\/g, "%5C").replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/\t/g, "%09");
  return url;
}

export function domainToASCII(domain) {
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return "";
  }
}

export function domainToUnicode(domain) {
  return domainToASCII(domain);
}

/** Legacy `url.parse`, as far as the WHATWG parser can answer it. */
export function parse(input, parseQuery = false) {
  const text = String(input);
  let url;
  try {
    url = new URL(text);
  } catch {
    const [pathPart, hash = null] = text.split("#");
    const [pathname, query = null] = pathPart.split("?");
    return Object.assign(new Url(), {
      search: query === null ? null : `?${query}`,
      query: parseQuery ? Object.fromEntries(new URLSearchParams(query ?? "")) : query,
      pathname: pathname || null,
      path: pathPart || null,
      href: text,
      hash: hash === null ? null : `#${hash}`,
    });
  }
  const search = url.search || null;
  return Object.assign(new Url(), {
    protocol: url.protocol,
    slashes: /^[a-z][a-z0-9+.-]*:\/\//i.test(text),
    auth: url.username ? decodeURIComponent(url.username) + (url.password ? `:${decodeURIComponent(url.password)}` : "") : null,
    host: url.host || null,
    port: url.port || null,
    hostname: url.hostname || null,
    hash: url.hash || null,
    search,
    query: parseQuery ? Object.fromEntries(url.searchParams) : search ? search.slice(1) : null,
    pathname: url.pathname || null,
    path: `${url.pathname}${url.search}` || null,
    href: url.href,
  });
}

export function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

/** Legacy `url.format` of a URL or a parsed object. */
export function format(input) {
  if (input instanceof URL) return input.href;
  if (typeof input === "string") return parse(input).href;
  const protocol = input.protocol ? (input.protocol.endsWith(":") ? input.protocol : `${input.protocol}:`) : "";
  const host = input.host ?? (input.hostname ? `${input.hostname}${input.port ? `:${input.port}` : ""}` : "");
  const slashes = input.slashes || /^(https?|ftp|file|wss?):$/.test(protocol) ? "//" : "";
  const auth = input.auth ? `${encodeURIComponent(input.auth).replace(/%3A/i, ":")}@` : "";
  let search = input.search ?? "";
  if (!search && input.query && typeof input.query === "object") {
    const query = new URLSearchParams(input.query).toString();
    search = query ? `?${query}` : "";
  }
  if (search && !search.startsWith("?")) search = `?${search}`;
  let hash = input.hash ?? "";
  if (hash && !hash.startsWith("#")) hash = `#${hash}`;
  let pathname = input.pathname ?? "";
  if (slashes && host && pathname && !pathname.startsWith("/")) pathname = `/${pathname}`;
  return `${protocol}${host || protocol === "file:" ? slashes : ""}${auth}${host}${pathname}${search}${hash}`;
}

export function resolve(from, to) {
  return new URL(to, new URL(from, "resolve://")).href.replace(/^resolve:\/\/\/?/, "");
}

export { URL, URLSearchParams };
export default { URL, URLSearchParams, fileURLToPath, pathToFileURL, domainToASCII, domainToUnicode, parse, format, resolve, Url };
