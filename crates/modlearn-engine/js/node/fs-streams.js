// fs.createReadStream and fs.createWriteStream: node:stream's Readable and
// Writable over the machine's file system. A stream opens its file when it is
// made, as Node's do, so a missing file is an `error` event even before a read.

import { Readable, Writable } from "./stream.js";

// Stream descriptors are numbered here: the stream reads and writes through the
// machine by path, so no descriptor is held open on the machine.
let nextDescriptor = 20;

function optionsOf(options) {
  return typeof options === "string" ? { encoding: options } : options ?? {};
}

function opened(stream, open) {
  return (callback) => {
    try {
      open();
    } catch (error) {
      callback(error);
      return;
    }
    stream.fd = nextDescriptor++;
    stream.pending = false;
    stream.emit("open", stream.fd);
    stream.emit("ready");
    callback();
  };
}

/** The two stream makers over node:fs's synchronous calls (handed in: fs.js imports this module). */
export function fileStreams({ appendFileSync, readFileSync, writeFileSync }) {
  return { createReadStream: (path, options) => createReadStream(path, options, readFileSync), createWriteStream: (path, options) => createWriteStream(path, options, appendFileSync, writeFileSync) };
}

function createReadStream(path, options, readFileSync) {
  const settings = optionsOf(options);
  const end = settings.end ?? Infinity;
  let data;
  let offset = settings.start ?? 0;
  const stream = new Readable({
    highWaterMark: settings.highWaterMark ?? 64 * 1024,
    encoding: settings.encoding,
    construct: (callback) => opened(stream, () => {
      data = readFileSync(path);
    })(callback),
    read() {
      const stop = Math.min(data.length, end + 1);
      if (offset >= stop) {
        this.push(null);
        return;
      }
      const chunk = data.subarray(offset, Math.min(stop, offset + this.readableHighWaterMark));
      offset += chunk.length;
      stream.bytesRead += chunk.length;
      this.push(chunk);
    },
  });
  Object.assign(stream, { path, bytesRead: 0, pending: true, fd: null });
  return stream;
}

function createWriteStream(path, options, appendFileSync, writeFileSync) {
  const settings = optionsOf(options);
  const flags = settings.flags ?? "w";
  const stream = new Writable({
    highWaterMark: settings.highWaterMark ?? 16 * 1024,
    defaultEncoding: settings.encoding ?? "utf8",
    construct: (callback) => opened(stream, () => (flags.startsWith("a") ? appendFileSync(path, "") : writeFileSync(path, "")))(callback),
    write(chunk, _encoding, callback) {
      try {
        appendFileSync(path, chunk);
        stream.bytesWritten += chunk.length;
        callback();
      } catch (error) {
        callback(error);
      }
    },
  });
  Object.assign(stream, { path, bytesWritten: 0, pending: true, fd: null });
  return stream;
}
