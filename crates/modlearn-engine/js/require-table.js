// The Node built-ins `require` returns (see require.js), by the name after
// `node:`. The loader's NODE_BUILTINS lists the same names (a Rust test checks).

import assert from "./node/assert.js";
import assertStrict from "./node/assert-strict.js";
import buffer from "./node/buffer.js";
import childProcess from "./node/child_process.js";
import crypto from "./node/crypto.js";
import events from "./node/events.js";
import fs from "./node/fs.js";
import fsPromises from "./node/fs-promises.js";
import http from "./node/http.js";
import https from "./node/https.js";
import module, { builtinModules } from "./node/module.js";
import net from "./node/net.js";
import os from "./node/os.js";
import path from "./node/path.js";
import pathPosix from "./node/path-posix.js";
import perfHooks from "./node/perf_hooks.js";
import process from "./node/process.js";
import querystring from "./node/querystring.js";
import stream from "./node/stream.js";
import streamPromises from "./node/stream-promises.js";
import streamWeb from "./node/stream-web.js";
import stringDecoder from "./node/string_decoder.js";
import timers from "./node/timers.js";
import timersPromises from "./node/timers-promises.js";
import tty from "./node/tty.js";
import url from "./node/url.js";
import util from "./node/util.js";
import utilTypes from "./node/util-types.js";

export const BUILTINS = Object.freeze({
  __proto__: null,
  "assert": assert,
  "assert/strict": assertStrict,
  "buffer": buffer,
  "child_process": childProcess,
  "crypto": crypto,
  "events": events,
  "fs": fs,
  "fs/promises": fsPromises,
  "http": http,
  "https": https,
  "module": module,
  "net": net,
  "os": os,
  "path": path,
  "path/posix": pathPosix,
  "perf_hooks": perfHooks,
  "process": process,
  "querystring": querystring,
  "stream": stream,
  "stream/promises": streamPromises,
  "stream/web": streamWeb,
  "string_decoder": stringDecoder,
  "timers": timers,
  "timers/promises": timersPromises,
  "tty": tty,
  "url": url,
  "util": util,
  "util/types": utilTypes,
});

builtinModules.push(...Object.keys(BUILTINS));
