// The copy button next to an install line. Without this script the button stays hidden and the
// line is still there to select and copy by hand.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.status);
  if (!(field instanceof HTMLInputElement)) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      if (status) status.textContent = "Copied.";
    } catch {
      // No clipboard access (an insecure origin, a denied permission): leave it selected instead.
      field.select();
      if (status) status.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
    }
  });
}
