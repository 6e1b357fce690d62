// The public verification page's file picker: the file is hashed here, in the browser, and
// never sent. Each accepted algorithm (data-algorithms, the default first) is looked up with
// /verify/0x<hash>?format=json (the API's answer); the browser then goes to the verdict's
// server-rendered page: the first hash that verifies, else the first one whose answer says
// why not (other than "not found"), else the default's.
// The hashing is hashing.js's, shared with the issuer pages (streaming; SHA-256 with Web
// Crypto where it can, @noble/hashes otherwise). Should it not load, the picker stays hidden.
import { hashFile } from "./hashing.js";

const drop = document.getElementById("drop");
const input = document.getElementById("file");
const status = document.getElementById("file-status");

async function lookUp(documentHash) {
  const response = await fetch(`${drop.dataset.verifyUrl}/${documentHash}?format=json`,
                               { headers: { Accept: "application/json" } });
  if (response.status === 429) {
    const wait = response.headers.get("Retry-After") || "a few";
    throw new Error(`Too many verifications from your address; try again in ${wait} seconds.`);
  }
  if (!response.ok) throw new Error(`The service answered ${response.status}; try again later.`);
  return response.json();
}

async function check(file) {
  status.textContent = `Hashing ${file.name} in your browser…`;
  const algorithms = drop.dataset.algorithms.split(",");
  const hashes = await hashFile(file, algorithms);
  let target = null;
  let explained = null;
  for (const algorithm of algorithms) {
    const documentHash = hashes[algorithm];
    target = target || documentHash;
    status.textContent = `Looking up the ${algorithm} hash of ${file.name}…`;
    const answer = await lookUp(documentHash);
    if (answer.verified) {
      target = documentHash;
      explained = null;
      break;
    }
    if (!explained && answer.reason && answer.reason !== "not_found") explained = documentHash;
  }
  window.location.assign(`${drop.dataset.verifyUrl}/${explained || target}`);
}

function start(file) {
  if (!file) return;
  check(file).catch((error) => {
    status.textContent = error.message;
  });
}

if (drop && input && status) {
  drop.hidden = false;
  input.addEventListener("change", () => start(input.files[0]));
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    start(event.dataTransfer.files[0]);
  });
}
