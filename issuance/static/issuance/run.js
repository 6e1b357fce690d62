// A run's page, kept current: its progress (issuance/api: .../progress) read every 2 s
// until every document has settled (confirmed, failed, expired or refused); the counts,
// the progress bar, the documents that need a look and the retry button follow it.
const section = document.getElementById("run");
const $ = (id) => document.getElementById(id);

function draw(progress) {
  for (const { state, count } of progress.counts) {
    const cell = $(`count-${state}`);
    if (cell) cell.textContent = count;
  }
  const bar = $("run-progress");
  bar.max = Math.max(progress.total, 1);
  bar.value = progress.confirmed;
  $("run-status").textContent = `${progress.confirmed} of ${progress.total} confirmed` +
    (progress.settled ? ": all settled. Reload the page to see each document's final state." : ".");
  $("chain-inactive").hidden = progress.chainActive;
  $("retry-form").hidden = progress.retryable === 0;
  const list = $("problems");
  list.replaceChildren();
  for (const problem of progress.problems) {
    const item = document.createElement("li");
    const strong = document.createElement("strong");
    strong.textContent = problem.name;
    item.append(strong, ` (${problem.state}): ${problem.reason}`);
    list.append(item);
  }
  $("problems-box").hidden = progress.problems.length === 0;
}

async function follow() {
  try {
    const response = await fetch(section.dataset.progressUrl, {
      credentials: "same-origin", headers: { Accept: "application/json" } });
    if (response.ok) {
      const progress = await response.json();
      draw(progress);
      if (progress.settled) return;
    }
  } catch (error) {
    // A network hiccup: try again at the next tick.
  }
  setTimeout(follow, 2000);
}

if (section) setTimeout(follow, 1000);
