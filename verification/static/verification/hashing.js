// The document hash of a file, computed in the browser (docs/api.md, "The document hash"):
// shared by the public verification page (verify.js) and the issuer pages' Web Workers
// (hash-worker.js). Streaming: a file is read in 4 MiB slices, each fed to every hasher,
// so that memory stays flat whatever the file's size; a file up to 32 MiB is read once
// whole instead and its SHA-256 taken by Web Crypto (native, several times faster, but it
// cannot hash in parts). SHA-256 otherwise, and keccak-256 always, by @noble/hashes
// (installed by scripts/web_assets.sh).
import { sha256 } from "./vendor/noble-hashes/sha2.js";
import { keccak_256 } from "./vendor/noble-hashes/sha3.js";

export const SLICE = 4 << 20;
export const WHOLE = 32 << 20;
const HASHERS = { sha256, keccak256: keccak_256 };

export const hex = (bytes) =>
  "0x" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

const webCrypto = () => globalThis.crypto && crypto.subtle;

async function whole(file, algorithms) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const hashes = {};
  for (const algorithm of algorithms) {
    hashes[algorithm] = algorithm === "sha256" && webCrypto()
      ? hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)))
      : hex(HASHERS[algorithm](bytes));
  }
  return hashes;
}

// {algorithm: "0x..."} for each of `algorithms` ("sha256", "keccak256") of `file` (a File
// or Blob); onBytes(n) after each n bytes read.
export async function hashFile(file, algorithms, onBytes = () => {}) {
  for (const algorithm of algorithms) {
    if (!HASHERS[algorithm]) throw new Error(`unknown hash algorithm ${algorithm}`);
  }
  if (file.size <= WHOLE) {
    const hashes = await whole(file, algorithms);
    onBytes(file.size);
    return hashes;
  }
  const hashers = algorithms.map((algorithm) => HASHERS[algorithm].create());
  for (let offset = 0; offset < file.size; offset += SLICE) {
    const part = new Uint8Array(await file.slice(offset, offset + SLICE).arrayBuffer());
    for (const hasher of hashers) hasher.update(part);
    onBytes(part.length);
  }
  return Object.fromEntries(algorithms.map((algorithm, i) => [algorithm, hex(hashers[i].digest())]));
}
