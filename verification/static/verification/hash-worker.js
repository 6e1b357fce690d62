// A Web Worker that hashes files off the page's thread (hashing.js): the issuer pages run a
// few of them, so that ten thousand files never freeze the tab. Message in: {id, file,
// algorithms}; out: {id, bytes} as it reads, then {id, hashes} or {id, error}.
import { hashFile } from "./hashing.js";

self.onmessage = async (event) => {
  const { id, file, algorithms } = event.data;
  try {
    const hashes = await hashFile(file, algorithms, (bytes) => {
      if (file.size > 1 << 20) self.postMessage({ id, bytes });
    });
    self.postMessage({ id, hashes });
  } catch (error) {
    self.postMessage({ id, error: (error && error.message) || String(error) });
  }
};
