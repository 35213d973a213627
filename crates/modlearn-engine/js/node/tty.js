// node:tty: the virtual machine has no terminal; every descriptor answers that it is not one.

export const isatty = (_fd) => false;

export class ReadStream {
  isTTY = false;
  isRaw = false;
  setRawMode() {
    return this;
  }
}

export class WriteStream {
  isTTY = false;
  columns = 80;
  rows = 24;
  getColorDepth() {
    return 1;
  }
  hasColors() {
    return false;
  }
  getWindowSize() {
    return [this.columns, this.rows];
  }
}

export default { isatty, ReadStream, WriteStream };
