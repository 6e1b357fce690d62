// The issuer page: files picked, or a folder or files dropped, are hashed in a few Web
// Workers (verification/static/verification/hash-worker.js: the same hashing as /verify,
// streaming), never uploaded; the page's thread only counts and draws, a few times a second,
// so that 10,000 files do not freeze the tab. Unreadable files and a second file with the
// same contents are listed and left out, not fatal. "Bind" creates a run and sends its
// documents in batches (as POST /workflows/batch takes them: 1,000 at most, and well under
// the body limit), then opens the run's page. Sending again is harmless: each document is
// bound once per chain and schema (the server keys it by its hash).
const form = document.getElementById("issue");

const MAX_BATCH = 1000;
const MAX_BODY = 600_000; // bytes of JSON per request: under the service's 1 MiB limit

function pickedSchema() {
  const chain = form.querySelector("#chain").value;
  const select = form.querySelector(`#schema-${chain}`);
  return { chainId: Number(chain), schemaId: select ? select.value : null };
}

function showSchemaOf(chain) {
  for (const box of form.querySelectorAll(".schema")) box.hidden = box.dataset.chain !== chain;
}

// The files of a drop: folders are walked (their files named by their path in it).
async function droppedFiles(transfer) {
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry && item.webkitGetAsEntry())
    .filter(Boolean);
  if (!entries.length) return [...transfer.files].map((file) => ({ file, name: file.name }));
  const found = [];
  async function walk(entry) {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      found.push({ file, name: entry.fullPath.replace(/^\//, "") });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        for (const child of batch) await walk(child);
      }
    }
  }
  for (const entry of entries) await walk(entry);
  return found;
}

class Drop {
  constructor(files) {
    this.files = files; // [{file, name}]
    this.results = new Array(files.length); // {hash} or {error}
    this.bytes = 0;
    this.total = files.reduce((sum, f) => sum + f.file.size, 0);
    this.done = 0;
    this.started = performance.now();
  }

  hash(workerUrl, algorithm) {
    const count = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2, this.files.length));
    let next = 0;
    return new Promise((resolve) => {
      const workers = [];
      const feed = (worker) => {
        if (next >= this.files.length) {
          worker.terminate();
          if (this.done === this.files.length) resolve();
          return;
        }
        const id = next++;
        worker.postMessage({ id, file: this.files[id].file, algorithms: [algorithm] });
      };
      for (let i = 0; i < count; i++) {
        const worker = new Worker(workerUrl, { type: "module" });
        worker.onmessage = ({ data }) => {
          if (data.bytes !== undefined && !data.hashes && !data.error) {
            this.bytes += data.bytes;
            return;
          }
          const size = this.files[data.id].file.size;
          if (size <= 1 << 20) this.bytes += size; // small files report only at the end
          this.results[data.id] = data.error ? { error: data.error } : { hash: data.hashes[algorithm] };
          this.done++;
          feed(worker);
        };
        worker.onerror = (event) => {
          event.preventDefault();
          status(`The hashing worker failed: ${event.message || "unknown error"}`);
        };
        workers.push(worker);
        feed(worker);
      }
    });
  }

  // The documents to bind, and the files left out with the reason.
  sorted() {
    const documents = [];
    const skipped = [];
    const firstOf = new Map();
    this.files.forEach(({ name }, index) => {
      const result = this.results[index];
      if (result.error) {
        skipped.push({ name, reason: `unreadable: ${result.error}` });
      } else if (firstOf.has(result.hash)) {
        skipped.push({ name, reason: `the same contents as ${firstOf.get(result.hash)}` });
      } else {
        firstOf.set(result.hash, name);
        documents.push({ name, documentHash: result.hash });
      }
    });
    return { documents, skipped };
  }
}

const $ = (id) => document.getElementById(id);
const status = (text) => { $("hash-status").textContent = text; };
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
let prepared = null;

function showProblems(skipped) {
  const list = $("problems");
  list.replaceChildren();
  const shown = skipped.slice(0, 500);
  for (const { name, reason } of shown) {
    const item = document.createElement("li");
    const strong = document.createElement("strong");
    strong.textContent = name;
    item.append(strong, `: ${reason}`);
    list.append(item);
  }
  if (skipped.length > shown.length) {
    const more = document.createElement("li");
    more.textContent = `and ${skipped.length - shown.length} more (listed on the run's page)`;
    list.append(more);
  }
  $("problems-box").hidden = skipped.length === 0;
}

async function start(files) {
  if (!files.length) return;
  prepared = null;
  $("bind").disabled = true;
  $("hashing").hidden = false;
  $("submit-status").textContent = "";
  const drop = new Drop(files);
  const progress = $("hash-progress");
  const draw = () => {
    progress.value = drop.total ? drop.bytes / drop.total : drop.done / files.length;
    status(`Hashed ${drop.done} of ${files.length} files (${megabytes(drop.bytes)} of ${megabytes(drop.total)} MB)…`);
  };
  const timer = setInterval(draw, 250);
  await drop.hash(form.dataset.worker, form.dataset.algorithm);
  clearInterval(timer);
  progress.value = 1;
  const seconds = (performance.now() - drop.started) / 1000;
  prepared = drop.sorted();
  window.issueTimings = { files: files.length, bytes: drop.total, seconds };
  status(`Hashed ${files.length} files (${megabytes(drop.total)} MB) in ${seconds.toFixed(1)} s: ` +
         `${prepared.documents.length} to bind, ${prepared.skipped.length} left out.`);
  showProblems(prepared.skipped);
  $("bind").disabled = prepared.documents.length === 0;
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Accept: "application/json",
               "X-CSRFToken": form.dataset.csrf },
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(answer.detail || `The service answered ${response.status}; try again.`);
  }
  return answer;
}

function batches(documents) {
  const out = [];
  let batch = [];
  let size = 0;
  for (const document of documents) {
    const length = JSON.stringify(document).length + 1;
    if (batch.length && (batch.length === MAX_BATCH || size + length > MAX_BODY)) {
      out.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(document);
    size += length;
  }
  if (batch.length) out.push(batch);
  return out;
}

async function bind() {
  const say = (text) => { $("submit-status").textContent = text; };
  $("bind").disabled = true;
  const { documents, skipped } = prepared;
  try {
    const run = await post(form.dataset.runsUrl, pickedSchema());
    const url = `${form.dataset.runsUrl}/${run.runId}/documents`;
    let sent = 0;
    for (const [index, batch] of batches(documents).entries()) {
      // The files left out go with the first batch (1,000 at most), to be shown on the run.
      await post(url, { documents: batch, skipped: index === 0 ? skipped.slice(0, MAX_BATCH) : [] });
      sent += batch.length;
      say(`Submitted ${sent} of ${documents.length} documents…`);
    }
    say(`Submitted ${documents.length} documents: opening the run's page.`);
    window.location.assign(run.url);
  } catch (error) {
    say(`Not all were submitted: ${error.message} Submitting again binds none twice.`);
    $("bind").disabled = false;
  }
}

if (form) {
  const dropZone = $("drop");
  dropZone.hidden = false;
  const picked = (input) => start([...input.files].map((file) => ({
    file, name: file.webkitRelativePath || file.name })));
  $("files").addEventListener("change", () => picked($("files")));
  $("folder").addEventListener("change", () => picked($("folder")));
  $("chain").addEventListener("change", () => showSchemaOf($("chain").value));
  dropZone.addEventListener("dragover", (event) => {
    event.preventDefault();
    dropZone.classList.add("over");
  });
  dropZone.addEventListener("dragleave", () => dropZone.classList.remove("over"));
  dropZone.addEventListener("drop", async (event) => {
    event.preventDefault();
    dropZone.classList.remove("over");
    start(await droppedFiles(event.dataTransfer));
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (prepared) bind();
  });
}
