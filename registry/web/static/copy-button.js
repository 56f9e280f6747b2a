// The copy button next to an install line. Without this script the button stays hidden and the
// line is still there to select (a click selects all of it) and copy by hand.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const line = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.status);
  if (!line) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(line.textContent.trim());
      if (status) status.textContent = "Copied.";
    } catch {
      // No clipboard access (an insecure origin, a denied permission): leave it selected instead.
      getSelection()?.selectAllChildren(line);
      if (status) status.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
    }
  });
}
