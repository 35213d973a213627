// Headers, Request, Response and FormData as Bun 1.4.5 has them, built on the sandbox's own Blob,
// File, URL, encoders and AbortSignal. Bun is the reference, quirks included (its method table,
// header order, lazily added content types, error wording): test.mjs checks each against Bun.

export function fetchTypes(deps) {
  const { Blob, File, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController, AbortSignal, ReadableStream, callMod } = deps;

  // The built-ins' own accessors, caught now: a mod that later patches Blob.prototype or
  // AbortSignal.prototype must not get its code run by ours.
  const accessor = (proto, name) => {
    for (let o = proto; o !== null; o = Object.getPrototypeOf(o)) {
      const d = Object.getOwnPropertyDescriptor(o, name);
      if (d) return d.get ?? d.value;
    }
  };
  const blobArrayBuffer = accessor(Blob.prototype, "arrayBuffer");
  const blobTypeOf = accessor(Blob.prototype, "type");
  const fileNameOf = accessor(File.prototype, "name");
  const lastModifiedOf = accessor(File.prototype, "lastModified");
  const signalAborted = accessor(AbortSignal.prototype, "aborted");
  const read = (getter, self) => Reflect.apply(getter, self, []);
  // An AbortSignal is whatever its own `aborted` getter accepts (it throws for anything else).
  const isSignal = (value) => {
    try {
      read(signalAborted, value);
      return true;
    } catch {
      return false;
    }
  };

  const encoder = new TextEncoder();
  const utf8 = (text) => encoder.encode(text);
  const decode = (bytes) => new TextDecoder().decode(bytes);
  const copyBytes = (data) =>
    new Uint8Array(ArrayBuffer.isView(data) ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data.slice(0));
  const isObject = (value) => value !== null && (typeof value === "object" || typeof value === "function");
  const fail = (message, Type = TypeError) => {
    throw new Type(message);
  };
  // Bun words a Symbol where a string is wanted one way for Headers and bodies, another for FormData.
  const str = (value, message = "Cannot convert a symbol to a string") => (typeof value === "symbol" ? fail(message) : String(value));
  const fdStr = (value) => str(value, "Cannot convert a Symbol value to a string");
  const checkCallback = (callback) => typeof callback === "function" || fail("Cannot call callback on a non-function");
  /** `self` if it is one of the instances `is` accepts, having at least `wanted` arguments; else Bun's errors. */
  const own = (self, is, [args = [], wanted = 0], message) => {
    if (args.length < wanted) fail("Not enough arguments");
    return is(self) ? self : fail(message);
  };

  /** An object with these own properties, "__proto__" included, in this order. */
  const plainObject = (entries) => {
    const out = {};
    for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    return out;
  };

  function concat(chunks) {
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (out.set(c, at), at + c.length), 0);
    return out;
  }

  /** A Blob whose `type` is exactly `type`: Bun hands a content type back as written, which `new Blob` would not. */
  function exactBlob(parts, type) {
    const blob = new Blob(parts, { type });
    if (read(blobTypeOf, blob) !== type) Object.defineProperty(blob, "type", { value: type, configurable: true });
    return blob;
  }

  /** A File as FormData holds it: Bun gives one made from a Blob with no file name an undefined `name`. */
  function formFile(parts, name, type, lastModified) {
    const file = new File(parts, name ?? "", { type, lastModified });
    if (name === undefined) Object.defineProperty(file, "name", { value: undefined, configurable: true });
    return file;
  }

  // Bun's members are enumerable (WebIDL on JSC), alphabetical on Request and Response; iterables
  // iterate their entries.
  function expose(cls, tag, sorted = false) {
    for (const target of [cls.prototype, cls]) {
      const keys = Reflect.ownKeys(target).filter((k) => !["constructor", "prototype", "length", "name"].includes(k));
      for (const key of sorted ? keys.sort() : keys) {
        const d = Object.getOwnPropertyDescriptor(target, key);
        delete target[key];
        Object.defineProperty(target, key, { ...d, enumerable: true });
      }
    }
    Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: tag, configurable: true });
    if (cls.prototype.entries) Object.defineProperty(cls.prototype, Symbol.iterator, { value: cls.prototype.entries, writable: true, configurable: true });
  }

  /** `cls` behind a proxy that refuses a call without `new` in Bun's words (a class can't tell it's called). */
  function requireNew(cls, message) {
    const guarded = new Proxy(cls, { apply: () => fail(message) });
    Object.defineProperty(cls.prototype, "constructor", { value: guarded, writable: true, configurable: true });
    return guarded;
  }

  // Iterators read their list again at every step, so changes made while iterating show, as in Bun.
  const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  function iteratorType(tag) {
    const Iterator = class {
      #list;
      #kind;
      #index = 0;
      constructor(list, kind) { [this.#list, this.#kind] = [list, kind]; }
      next() {
        const entries = this.#list();
        if (this.#index >= entries.length) return { value: undefined, done: true };
        const [key, value] = entries[this.#index++];
        return { value: this.#kind === "keys" ? key : this.#kind === "values" ? value : [key, value], done: false };
      }
    };
    Object.setPrototypeOf(Iterator.prototype, IteratorPrototype);
    delete Iterator.prototype.constructor;
    Object.defineProperty(Iterator.prototype, "next", { enumerable: true });
    Object.defineProperty(Iterator.prototype, Symbol.toStringTag, { value: tag, configurable: true });
    return (list, kind) => new Iterator(list, kind);
  }
  const headersIterator = iteratorType("Headers Iterator");
  const formDataIterator = iteratorType("FormData Iterator");

  // ---- Headers ----

  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  // WebKit's well-known header names, which toJSON lists before the others.
  const COMMON = new Set(
    `accept accept-charset accept-language accept-encoding accept-ranges access-control-allow-credentials
    access-control-allow-headers access-control-allow-methods access-control-allow-origin access-control-expose-headers
    access-control-max-age access-control-request-headers access-control-request-method age authorization cache-control
    connection content-disposition content-encoding content-language content-length content-location content-range
    content-security-policy content-security-policy-report-only content-type cookie cookie2 cross-origin-embedder-policy
    cross-origin-embedder-policy-report-only cross-origin-opener-policy cross-origin-opener-policy-report-only
    cross-origin-resource-policy dnt date default-style etag expect expires host if-match if-modified-since if-none-match
    if-range if-unmodified-since keep-alive last-event-id last-modified link location origin ping-from ping-to pragma
    proxy-authorization purpose range referer referrer-policy refresh report-to sec-fetch-dest sec-fetch-mode
    sec-websocket-accept sec-websocket-extensions sec-websocket-key sec-websocket-protocol sec-websocket-version
    server-timing service-worker service-worker-allowed service-worker-navigation-preload set-cookie2 sourcemap te
    timing-allow-origin trailer transfer-encoding upgrade upgrade-insecure-requests user-agent vary via
    x-content-type-options x-dns-prefetch-control x-frame-options x-sourcemap x-temp-tablet x-xss-protection
    strict-transport-security icy-metaint icy-metadata`.split(/\s+/),
  );

  function headerName(name) {
    const text = str(name);
    return TOKEN.test(text) ? text.toLowerCase() : fail(`Invalid header name: '${text}'`);
  }
  function headerValue(name, value) {
    const text = str(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    return /[\0\n\r]|[^\x00-\xff]/.test(text) ? fail(`Header '${str(name)}' has invalid value`) : text;
  }

  let headersGet, headersSet;
  class Headers {
    #map = new Map(); // lower-case name -> combined value, in insertion order
    #cookies = []; // set-cookie values, never combined
    static {
      headersGet = (h, name) => h.#get(name);
      headersSet = (h, name, value) => h.#set(headerName(name), headerValue(name, value));
    }

    constructor(init = undefined) {
      if (init === undefined) return;
      if (!isObject(init)) fail("Type error");
      if (Headers.#is(init)) {
        this.#map = new Map(init.#map);
        this.#cookies = [...init.#cookies];
      } else if (init[Symbol.iterator] != null) {
        for (const pair of init) {
          if (!isObject(pair) || typeof pair[Symbol.iterator] !== "function") fail("Value is not a sequence");
          const items = [...pair];
          if (items.length !== 2) fail("Header sub-sequence must contain exactly two items");
          this.#append(items[0], items[1]);
        }
      } else {
        for (const key of Reflect.ownKeys(init)) if (Object.getOwnPropertyDescriptor(init, key)?.enumerable) this.#append(str(key), init[key]);
      }
    }

    static #is(h) { return isObject(h) && #map in h; }
    static #own(h, method, ...args) { return own(h, Headers.#is, args, `Can only call Headers.${method} on instances of Headers`); }
    #get(lower) { return lower === "set-cookie" ? (this.#cookies.length ? this.#cookies.join(", ") : null) : (this.#map.get(lower) ?? null); }
    #set(lower, value) {
      if (lower === "set-cookie") this.#cookies = [value];
      else this.#map.set(lower, value);
    }
    #append(name, value) {
      const lower = headerName(name);
      const text = headerValue(name, value);
      if (lower === "set-cookie") this.#cookies.push(text);
      else this.#map.set(lower, this.#map.has(lower) ? `${this.#map.get(lower)}, ${text}` : text);
    }
    // Sorted by name, then each set-cookie line on its own, as Bun iterates.
    #sorted() {
      const entries = [...this.#map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return entries.concat(this.#cookies.map((cookie) => ["set-cookie", cookie]));
    }
    #iterate(kind) { return headersIterator(() => this.#sorted(), kind); }

    append(name, value) { Headers.#own(this, "append", arguments, 2).#append(name, value); }
    delete(name) {
      const self = Headers.#own(this, "delete", arguments, 1);
      const lower = headerName(name);
      if (lower === "set-cookie") self.#cookies = [];
      else self.#map.delete(lower);
    }
    get(name) { return Headers.#own(this, "get", arguments, 1).#get(headerName(name)); }
    // getAll, count and getSetCookie answer undefined off a Headers, as in Bun.
    getAll(name) {
      if (arguments.length < 1) fail("Missing argument");
      if (str(name).toLowerCase() !== "set-cookie") fail('Only "set-cookie" is supported.');
      return Headers.#is(this) ? [...this.#cookies] : undefined;
    }
    has(name) { return Headers.#own(this, "has", arguments, 1).#get(headerName(name)) !== null; }
    set(name, value) { Headers.#own(this, "set", arguments, 2).#set(headerName(name), headerValue(name, value)); }
    entries() { return Headers.#own(this, "entries").#iterate("entries"); }
    keys() { return Headers.#own(this, "keys").#iterate("keys"); }
    values() { return Headers.#own(this, "values").#iterate("values"); }
    forEach(callback, thisArg = undefined) {
      const self = Headers.#own(this, "forEach");
      checkCallback(callback);
      for (let i = 0, entries; i < (entries = self.#sorted()).length; i++) callMod(callback, thisArg, [entries[i][1], entries[i][0], self]);
    }
    // Well-known names first, then set-cookie as an array, then the rest, each in insertion order.
    toJSON() {
      const self = Headers.#own(this, "toJSON");
      const common = [...self.#map].filter(([name]) => COMMON.has(name));
      const rest = [...self.#map].filter(([name]) => !COMMON.has(name));
      return plainObject([...common, ...(self.#cookies.length ? [["set-cookie", [...self.#cookies]]] : []), ...rest]);
    }
    get count() { return Headers.#is(this) ? this.#map.size + this.#cookies.length : undefined; }
    getSetCookie() { return Headers.#is(this) ? [...this.#cookies] : undefined; }
  }
  expose(Headers, "Headers");

  // ---- FormData ----

  let formEntries, isFormData;
  class FormData {
    // { name, value: string | File, filename (what a multipart body says), fileName (the File's own) }
    #entries = [];
    static {
      formEntries = (fd) => fd.#entries;
      isFormData = (value) => isObject(value) && #entries in value;
    }
    constructor(_form = undefined) {}

    static #own(fd, method, ...args) { return own(fd, isFormData, args, `Can only call FormData.${method} on instances of FormData`); }
    // A Blob is kept as a File copy. Bun keeps a File's own name but writes the name it was
    // appended with into a multipart body.
    static #entry([name, value, filename], count) {
      const key = fdStr(name);
      if (!(value instanceof Blob)) return count > 2 ? fail("Expected argument to be a Blob.") : { name: key, value: fdStr(value) };
      const isFile = value instanceof File;
      const given = filename === undefined ? undefined : fdStr(filename);
      const fileName = isFile ? read(fileNameOf, value) : given;
      const file = formFile([value], fileName, read(blobTypeOf, value), isFile ? read(lastModifiedOf, value) : 0);
      return { name: key, value: file, filename: given ?? (isFile ? fileName : ""), fileName };
    }
    // Bun hands out a new File at every read.
    static #value({ value, fileName }) {
      return typeof value === "string" ? value : formFile([value], fileName, read(blobTypeOf, value), read(lastModifiedOf, value));
    }
    #list() { return this.#entries.map((e) => [e.name, FormData.#value(e)]); }
    #named(name) { return this.#entries.filter((e) => e.name === fdStr(name)); }
    #iterate(kind) { return formDataIterator(() => this.#list(), kind); }

    append(name, value, filename = undefined) {
      FormData.#own(this, "append", arguments, 2).#entries.push(FormData.#entry(arguments, arguments.length));
    }
    delete(name) {
      const self = FormData.#own(this, "delete", arguments, 1);
      const gone = self.#named(name);
      self.#entries = self.#entries.filter((e) => !gone.includes(e));
    }
    get(name) {
      const [entry] = FormData.#own(this, "get", arguments, 1).#named(name);
      return entry ? FormData.#value(entry) : null;
    }
    getAll(name) { return FormData.#own(this, "getAll", arguments, 1).#named(name).map(FormData.#value); }
    has(name) { return FormData.#own(this, "has", arguments, 1).#named(name).length > 0; }
    set(name, value, filename = undefined) {
      const self = FormData.#own(this, "set", arguments, 2);
      const entry = FormData.#entry(arguments, arguments.length);
      const at = self.#entries.findIndex((e) => e.name === entry.name);
      if (at < 0) return void self.#entries.push(entry);
      self.#entries[at] = entry;
      self.#entries = self.#entries.filter((e, i) => i <= at || e.name !== entry.name);
    }
    entries() { return FormData.#own(this, "entries").#iterate("entries"); }
    keys() { return FormData.#own(this, "keys").#iterate("keys"); }
    values() { return FormData.#own(this, "values").#iterate("values"); }
    forEach(callback, thisArg = undefined) {
      const self = FormData.#own(this, "forEach");
      checkCallback(callback);
      for (let i = 0, entries; i < (entries = self.#list()).length; i++) callMod(callback, thisArg, [entries[i][1], entries[i][0], self]);
    }
    // A name given more than once maps to an array of its values.
    toJSON() {
      const grouped = new Map();
      for (const [name, value] of FormData.#own(this, "toJSON").#list()) grouped.set(name, grouped.has(name) ? [grouped.get(name), value].flat() : value);
      return plainObject(grouped);
    }
  }
  expose(FormData, "FormData");
  // Bun's odd extra: the entry count, not enumerable, and a bare "Type error" off a FormData.
  Object.defineProperty(FormData.prototype, "length", {
    get() { return isFormData(this) ? formEntries(this).length : fail("Type error"); },
  });

  // ---- multipart/form-data ----

  const newBoundary = () => "----WebKitFormBoundary" + Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join("");
  const escapeQuoted = (text) => text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const crlf = (text) => text.replace(/\r\n|\r|\n/g, "\r\n");

  /** A multipart body as Bun writes it: encoded text, and the Files themselves (read later). */
  function multipartParts(entries, boundary) {
    const parts = [];
    for (const { name, value, filename } of entries) {
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(crlf(name))}"`;
      if (typeof value === "string") parts.push(utf8(`${head}\r\n\r\n${crlf(value)}\r\n`));
      else {
        const type = read(blobTypeOf, value) || "application/octet-stream";
        parts.push(utf8(`${head}; filename="${escapeQuoted(filename)}"\r\nContent-Type: ${type}\r\n\r\n`), value, utf8("\r\n"));
      }
    }
    parts.push(utf8(`--${boundary}--\r\n`));
    return parts;
  }

  // The type Bun gives a parsed file part comes from its file name's extension; the part's own
  // Content-Type is ignored.
  const MIME_BY_EXTENSION = new Map(
    `txt=text/plain;charset=utf-8 html,htm=text/html;charset=utf-8 css=text/css;charset=utf-8
    js,mjs,cjs,ts,tsx,jsx=text/javascript;charset=utf-8 json,map=application/json;charset=utf-8 xml=application/xml
    csv=text/csv md=text/markdown yaml,yml=text/yaml rtf=text/rtf png=image/png jpg,jpeg=image/jpeg gif=image/gif
    svg=image/svg+xml webp=image/webp avif=image/avif ico=image/x-icon bmp=image/x-ms-bmp tif,tiff=image/tiff
    pdf=application/pdf zip=application/zip gz=application/gzip tar=application/x-tar wasm=application/wasm
    bin=application/octet-stream toml=application/toml sh=application/x-sh mp3=audio/mpeg ogg=audio/ogg wav=audio/x-wav
    flac=audio/x-flac mp4=video/mp4 webm=video/webm mov=video/quicktime avi=video/x-msvideo woff=font/woff
    woff2=font/woff2 ttf=font/ttf otf=font/otf`
      .split(/\s+/)
      .flatMap((item) => {
        const at = item.indexOf("=");
        return item.slice(0, at).split(",").map((ext) => [ext, item.slice(at + 1)]);
      }),
  );
  const mimeOf = (name) => (name.includes(".") ? (MIME_BY_EXTENSION.get(name.slice(name.lastIndexOf(".") + 1).toLowerCase()) ?? "") : "");

  const formError = (detail) => new TypeError(`FormData parse error ${detail}`);
  function parseMultipart(bytes, boundary) {
    // One character per byte, to find delimiters without decoding file contents.
    let text = "";
    for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
    const form = new FormData();
    const delimiter = `--${boundary}`;
    let at = text.indexOf(delimiter);
    if (at < 0) throw formError("missing final boundary");
    for (;;) {
      const start = at + delimiter.length;
      // Bun stops quietly at a delimiter not followed by CRLF (the closing one, or LF-only input).
      if (!text.startsWith("\r\n", start)) return form;
      const end = text.indexOf(`\r\n${delimiter}`, start);
      if (end < 0) throw formError("missing final boundary");
      const split = text.indexOf("\r\n\r\n", start);
      if (split < 0 || split > end) throw formError("is missing header end");
      const disposition = decode(bytes.subarray(start + 2, split))
        .split("\r\n")
        .find((line) => /^content-disposition:/i.test(line));
      const body = bytes.subarray(split + 4, end);
      at = end + 2;
      // An unquoted name runs to the end of the line; only a quoted filename makes a file.
      const name = disposition && /(?:^|;)\s*name=(?:"([^"]*)"|([^"].*))/i.exec(disposition);
      if (!name) continue;
      const filename = /(?:^|;)\s*filename="([^"]*)"/i.exec(disposition)?.[1];
      const value = filename === undefined ? decode(body) : formFile([body.slice()], filename || undefined, mimeOf(filename), Date.now());
      formEntries(form).push({ name: name[1] ?? name[2], value, filename, fileName: filename || undefined });
    }
  }

  /** How a body of `contentType` decodes to FormData: true for urlencoded, a boundary, or null. */
  function formKind(contentType) {
    const [essence, ...params] = (contentType ?? "").split(";");
    const type = essence.trim().toLowerCase();
    if (type === "application/x-www-form-urlencoded") return true;
    const boundary = params.map((p) => /^\s*boundary=(?:"([^"]*)"|(.*))$/i.exec(p)).find(Boolean);
    return type === "multipart/form-data" && boundary ? (boundary[1] ?? boundary[2].trim()) : null;
  }
  function parseForm(bytes, kind) {
    if (kind !== true) return parseMultipart(bytes, kind);
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(decode(bytes))) formEntries(form).push({ name, value });
    return form;
  }

  // ---- bodies, shared by Request and Response ----

  // What a body value becomes: `parts` (bytes, and Blobs, read only when consumed since their
  // bytes are async) or a `stream` handed in; the content type it implies; the type blob() falls back on.
  function extractBody(value) {
    const typed = (parts, contentType, blobType = contentType) => ({ parts, contentType, blobType });
    const plain = (part) => typed([part], null, "text/plain;charset=utf-8");
    if (value === undefined || value === null) return null;
    if (ReadableStream && value instanceof ReadableStream) {
      return value.locked ? fail("Body object should not be disturbed or locked") : { stream: value, contentType: null, blobType: "" };
    }
    if (Array.isArray(value)) return plain(new Blob(value)); // Bun reads an array as a Blob's parts
    if (value instanceof Blob) return read(blobTypeOf, value) ? typed([value], read(blobTypeOf, value)) : plain(value);
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return plain(copyBytes(value));
    if (value instanceof URLSearchParams) return typed([utf8(String(value))], "application/x-www-form-urlencoded;charset=UTF-8");
    if (!isFormData(value)) return plain(utf8(str(value)));
    const boundary = newBoundary();
    return typed(multipartParts(formEntries(value), boundary), `multipart/form-data; boundary=${boundary}`);
  }

  // A body's state. Bun adds the body's content type to the headers only when they are first read
  // (`pending` till then) and drops it once the body is consumed or, for a Response, once its `body`
  // stream is taken; `contentType` stays for formData() and copies.
  function makeBody(extracted, headers, pending = extracted?.contentType ?? null) {
    const { parts = null, stream = null, contentType = null, blobType = "" } = extracted ?? {};
    return { parts, stream, contentType, blobType, pending, headers, used: false, shown: false };
  }
  function showHeaders(body) {
    if (body.pending !== null && headersGet(body.headers, "content-type") === null) headersSet(body.headers, "content-type", body.pending);
    body.pending = null;
    body.shown = true;
    return body.headers;
  }
  const hasBody = (body) => body.parts !== null || body.stream !== null;
  const isUsed = (body) => body.used || (body.stream !== null && body.stream.locked);

  async function readParts(parts) {
    const chunks = [];
    for (const part of parts) chunks.push(part instanceof Uint8Array ? part : new Uint8Array(await Reflect.apply(blobArrayBuffer, part, [])));
    return concat(chunks);
  }
  async function readStream(stream) {
    const reader = stream.getReader();
    const chunks = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const { value } = next;
      if (typeof value === "string") chunks.push(utf8(value));
      else if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) chunks.push(copyBytes(value));
      else fail("Expected text, ArrayBuffer or ArrayBufferView");
    }
    return concat(chunks);
  }

  // The body's bytes, marking it used at once (an async function runs up to its first await); a
  // missing body reads as empty and is never used up. Async, so every promise is the engine's own,
  // and awaited rather than chained, so a `then` a mod patches onto Promise.prototype is not used.
  async function consume(body) {
    if (!hasBody(body)) return new Uint8Array(0);
    if (isUsed(body)) throw Object.assign(new TypeError("Body already used"), { code: "ERR_BODY_ALREADY_USED" });
    body.used = true;
    body.pending = null;
    return await (body.parts === null ? readStream(body.stream) : readParts(body.parts));
  }

  /** `body`: the stream handed in, or one made on first ask that yields all the bytes as one chunk. */
  function bodyStream(body) {
    if (!hasBody(body) || !ReadableStream) return null;
    if (body.stream === null) {
      const pull = async (controller) => {
        if (!body.used) {
          body.used = true;
          const bytes = await readParts(body.parts);
          if (bytes.length) controller.enqueue(bytes);
        }
        controller.close();
      };
      body.stream = new ReadableStream({ pull }, { highWaterMark: 0 });
    }
    return body.stream;
  }

  /** A copy of `body` for a clone or a Request made from another: a stream is teed, a used body copies as empty. */
  function copyBody(body, headers, pending) {
    const copy = { ...makeBody(null, headers, pending), contentType: body.contentType, blobType: body.blobType };
    if (!hasBody(body)) return copy;
    if (isUsed(body)) copy.parts = [];
    else if (body.parts !== null) copy.parts = body.parts;
    else [body.stream, copy.stream] = body.stream.tee();
    return copy;
  }

  // Bun's blob() spells a few well-known content types its own way and keeps the rest as written.
  const CANONICAL = new Set(["text/plain", "text/html", "text/css", "text/javascript", "application/json"]);
  function blobType(body, bytes) {
    const header = headersGet(body.headers, "content-type");
    if (header === null) return body.contentType ?? (bytes.length ? body.blobType : "");
    const essence = header.split(";")[0].trim();
    return CANONICAL.has(essence) ? `${essence};charset=utf-8` : header;
  }

  /** Brand checks in Bun's words (getters word theirs apart), for a class whose instances key `bodies`. */
  function brand(name, bodies) {
    return (self, member, getter = true) => {
      if (isObject(self) && bodies.has(self)) return self;
      if (getter) fail(`The ${name}.${member} getter can only be used on instances of ${name}`);
      return fail(`Expected this to be instanceof ${name}, but received an instance of ${isObject(self) ? "Object" : typeof self}`);
    };
  }

  /** The body members, and getters that only check their receiver and answer `constants[key]`. */
  function installBody(cls, own, bodies, constants) {
    const body = (self, member, getter = false) => bodies.get(own(self, member, getter));
    // The receiver is checked before any promise: a wrong one throws, as in Bun.
    const afterRead = async (state, use) => use(await consume(state), state);
    const json = (bytes) => {
      const text = decode(bytes);
      return text === "" ? fail("Unexpected end of JSON input", SyntaxError) : JSON.parse(text);
    };
    const form = async (state) => {
      const kind = formKind(headersGet(state.headers, "content-type") ?? state.contentType);
      // A body of the wrong type is refused before it is read, and stays unused.
      if (kind === null && !(hasBody(state) && isUsed(state))) fail("Can't decode form data from body because of incorrect MIME type/boundary");
      return parseForm(await consume(state), kind);
    };
    const members = {
      arrayBuffer() { return afterRead(body(this), (bytes) => bytes.buffer); },
      blob() { return afterRead(body(this), (bytes, state) => exactBlob([bytes], blobType(state, bytes))); },
      get body() {
        const state = body(this, "body", true);
        if (cls === Response) state.pending = null;
        return bodyStream(state);
      },
      get bodyUsed() { return isUsed(body(this, "bodyUsed", true)); },
      bytes() { return consume(body(this)); },
      formData() { return form(body(this)); },
      json() { return afterRead(body(this), json); },
      text() { return afterRead(body(this), decode); },
    };
    for (const key of Object.keys(members)) Object.defineProperty(cls.prototype, key, Object.getOwnPropertyDescriptor(members, key));
    for (const [key, value] of Object.entries(constants)) {
      const get = function () {
        own(this, key);
        return value;
      };
      Object.defineProperty(cls.prototype, key, { get, configurable: true });
    }
  }

  // ---- Response ----

  // Bun converts a status through a 64-bit integer: a number out of range (or NaN) lands on the
  // minimum, any other value out of range on 0.
  function toStatus(value) {
    const number = typeof value === "symbol" ? fail("Cannot convert a symbol to a number") : Number(value);
    const inRange = Number.isFinite(number) && Math.abs(number) < 2 ** 63;
    const status = inRange ? Math.trunc(number) + 0 : typeof value === "number" ? "-9223372036854775808" : 0;
    if (status === 101 || (status >= 200 && status <= 599)) return status;
    throw new RangeError(`The status provided (${status}) must be 101 or in the range of [200, 599]`);
  }

  function stringifyJSON(data) {
    try {
      return JSON.stringify(data);
    } catch (error) {
      // Bun's wording for the engine's own two refusals.
      if (error instanceof TypeError && /bigint/i.test(error.message)) throw new TypeError("Do not know how to serialize a BigInt");
      if (error instanceof TypeError && /circular|cyclic/i.test(error.message)) throw new TypeError("JSON.stringify cannot serialize cyclic structures.");
      throw error;
    }
  }

  const responseBodies = new WeakMap();
  const response = brand("Response", responseBodies);
  class Response {
    #status = 200;
    #statusText = "";
    #headers;
    #type = "default";

    // Read in Bun's order: headers, status, statusText, then the body.
    constructor(body = undefined, init = undefined) {
      if (init != null && !isObject(init)) fail("Failed to construct 'Response': The provided body value is not of type 'ResponseInit'");
      const headers = init?.headers;
      this.#headers = new Headers(headers);
      const status = init?.status;
      if (status !== undefined) this.#status = toStatus(status);
      const statusText = init?.statusText;
      if (statusText !== undefined && statusText !== null) this.#statusText = str(statusText);
      responseBodies.set(this, makeBody(extractBody(body), this.#headers));
    }

    get headers() { return showHeaders(responseBodies.get(response(this, "headers"))); }
    get ok() {
      const status = response(this, "ok").#status;
      return status >= 200 && status <= 299;
    }
    get status() { return response(this, "status").#status; }
    get statusText() { return response(this, "statusText").#statusText; }
    get type() { return response(this, "type").#type; }
    clone() {
      const body = responseBodies.get(response(this, "clone", false));
      if (isUsed(body)) fail("Body is disturbed or locked");
      const copy = new Response(null, { headers: this.#headers, statusText: this.#statusText });
      copy.#status = this.#status;
      copy.#type = this.#type;
      responseBodies.set(copy, copyBody(body, copy.#headers, body.shown ? null : body.contentType));
      return copy;
    }

    static error() {
      const response = new Response();
      response.#status = 0;
      response.#type = "error";
      return response;
    }
    // A number for init is the status, unchecked but held to 0..65535.
    static json(data = undefined, init = undefined) {
      let text = "";
      if (arguments.length > 0) text = stringifyJSON(data) ?? fail("Value is not JSON serializable");
      const response = new Response(text, isObject(init) ? init : undefined);
      if (typeof init === "number") response.#status = Math.min(65535, Math.max(0, Math.trunc(init) || 0));
      if (headersGet(response.#headers, "content-type") === null) headersSet(response.#headers, "content-type", "application/json;charset=utf-8");
      return response;
    }
    // A number status must be a redirect code, an init object's is taken as it is (200 when it
    // has none), and the location is written without being parsed.
    static redirect(url = undefined, init = undefined) {
      let response;
      if (isObject(init)) response = new Response(null, init);
      else {
        const status = typeof init !== "number" ? 302 : Number.isNaN(init) ? 0 : Math.trunc(init);
        if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError("Failed to execute 'redirect' on 'Response': Invalid status code");
        response = new Response(null, { status });
      }
      if (arguments.length > 0) headersSet(response.#headers, "Location", url);
      return response;
    }
  }
  installBody(Response, response, responseBodies, { redirected: false, url: "" });
  expose(Response, "Response", true);

  // ---- Request ----

  // Bun's method table: a known method in upper or lower case is upper-cased, anything else is GET.
  const METHODS = new Set(
    `ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE MKACTIVITY MKCALENDAR MKCOL MOVE NOTIFY
    OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY REBIND REPORT SEARCH SOURCE SUBSCRIBE TRACE UNBIND UNLINK
    UNLOCK UNSUBSCRIBE`.split(/\s+/),
  );
  function normalizeMethod(value) {
    const text = str(value);
    const upper = text.toUpperCase();
    return METHODS.has(upper) && (text === upper || text === upper.toLowerCase()) ? upper : "GET";
  }
  const ENUMS = {
    redirect: ["follow", "manual", "error"],
    cache: ["default", "no-store", "reload", "no-cache", "force-cache", "only-if-cached"],
    mode: ["same-origin", "no-cors", "cors", "navigate"],
  };
  function enumOption(option, value, fallback) {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "string" && !(value instanceof String)) throw new TypeError(`${option} must be a string`);
    const allowed = ENUMS[option];
    if (allowed.includes(String(value))) return String(value);
    const list = allowed.map((v) => `'${v}'`);
    throw new TypeError(`${option} must be one of ${list.slice(0, -1).join(", ")} or ${list.at(-1)}`);
  }

  const requestBodies = new WeakMap();
  const request = brand("Request", requestBodies);
  const constructError = (detail, Type = Error) => new Type(`Failed to construct 'Request': ${detail}`);
  class Request {
    #url;
    #method = "GET";
    #headers;
    #signal = null; // made on first ask when none was given
    #redirect = "follow";
    #cache = "default";
    #mode = "cors";

    constructor(input = undefined, init = undefined) {
      if (arguments.length === 0) throw constructError("1 argument required, but only 0 present.");
      // Bun reads an object input (not a Request) as an init that has a `url`, and lets init's
      // `url` override any input but a string.
      let url;
      const source = isObject(input) && #url in input ? input : null;
      const fields = isObject(input) && !source ? [input] : [];
      if (typeof input === "string") url = input;
      else if (source) url = source.#url;
      else if (!isObject(input)) throw constructError(`expected non-empty string or object${typeof input === "symbol" ? "" : ", got undefined"}`);
      if (isObject(init)) fields.push(init);
      const option = (name) => fields.map((f) => f[name]).filter((value) => value !== undefined).at(-1);
      if (typeof input !== "string") {
        const given = option("url");
        if (given !== undefined) url = str(given);
        // An object with a toString of its own (a URL, say) stands for its string.
        else if (!source && input.toString !== Object.prototype.toString) url = str(input);
      }
      if (!url) throw constructError("url is required.");

      // Checked in Bun's order: body, signal, headers, method, redirect, cache, mode, then the URL.
      const bodyValue = option("body");
      const extracted = bodyValue === undefined ? undefined : extractBody(bodyValue);
      const signal = option("signal");
      if (signal !== undefined && signal !== null) {
        if (!isSignal(signal)) throw constructError("signal is not of type AbortSignal.", TypeError);
        this.#signal = signal;
      } else if (source) this.#signal = source.#signal;
      const headers = option("headers");
      this.#headers = new Headers(headers !== undefined ? headers : source?.#headers);
      const method = option("method");
      this.#method = method === undefined || method === null ? (source?.#method ?? "GET") : normalizeMethod(method);
      this.#redirect = enumOption("redirect", option("redirect"), source?.#redirect ?? "follow");
      this.#cache = enumOption("cache", option("cache"), source?.#cache ?? "default");
      this.#mode = enumOption("mode", option("mode"), source?.#mode ?? "cors");
      try {
        this.#url = new URL(url).href;
      } catch {
        throw constructError(`Invalid URL "${url}"`, TypeError);
      }
      const from = extracted === undefined && source ? requestBodies.get(source) : null;
      requestBodies.set(this, from ? copyBody(from, this.#headers, from.contentType) : makeBody(extracted, this.#headers));
    }

    get cache() { return request(this, "cache").#cache; }
    get headers() { return showHeaders(requestBodies.get(request(this, "headers"))); }
    get method() { return request(this, "method").#method; }
    get mode() { return request(this, "mode").#mode; }
    get redirect() { return request(this, "redirect").#redirect; }
    get signal() {
      const self = request(this, "signal");
      return (self.#signal ??= new AbortController().signal);
    }
    get url() { return request(this, "url").#url; }
    clone() {
      const body = requestBodies.get(request(this, "clone", false));
      if (isUsed(body)) fail("Body is disturbed or locked");
      const copy = new Request(this);
      requestBodies.set(copy, copyBody(body, copy.#headers, body.shown ? null : body.contentType));
      return copy;
    }
  }
  installBody(Request, request, requestBodies, { credentials: "include", destination: "", integrity: "", referrer: "", referrerPolicy: "" });
  expose(Request, "Request", true);

  return {
    Headers: requireNew(Headers, "Use `new Headers(...)` instead of `Headers(...)`"),
    Request: requireNew(Request, "Request constructor cannot be invoked without 'new'"),
    Response: requireNew(Response, "Response constructor cannot be invoked without 'new'"),
    FormData: requireNew(FormData, "Use `new FormData(...)` instead of `FormData(...)`"),
  };
}
