// URL and URLSearchParams: the WHATWG URL parser (vendored
// whatwg-url-without-unicode), plus the statics newer than that package.

import { URL, URLSearchParams } from "../vendor/url.js";

if (typeof URL.canParse !== "function") {
  Object.defineProperty(URL, "canParse", {
    value: function canParse(url, base) {
      try {
        new URL(url, base);
        return true;
      } catch {
        return false;
      }
    },
    writable: true,
    configurable: true,
  });
}
if (typeof URL.parse !== "function") {
  Object.defineProperty(URL, "parse", {
    value: function parse(url, base) {
      try {
        return new URL(url, base);
      } catch {
        return null;
      }
    },
    writable: true,
    configurable: true,
  });
}

export { URL, URLSearchParams };
