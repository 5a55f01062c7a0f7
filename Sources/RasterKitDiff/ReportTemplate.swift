/// The page around the report's sections: styles and the small script behind the slider and
/// onion-skin views. No external resources, so the file can be mailed or archived as is.
enum ReportTemplate {
    /// - Parameter reviewToken: makes the page a review page: each section's Accept and Reject
    ///   buttons post its name with this token (see `rasterkit report --serve`); nil for a
    ///   static report.
    static func page(title: String, summary: String, body: String, reviewToken: String? = nil) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>RasterKit — \(title)</title>
        <style>
        :root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --accent: #2f6feb; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, "DejaVu Sans", sans-serif; color: var(--ink); background: #f8fafc; }
        header { padding: 24px 32px; background: #fff; border-bottom: 1px solid var(--line); }
        header h1 { margin: 0; font-size: 22px; }
        .note { color: var(--muted); }
        main { padding: 24px 32px; display: grid; gap: 24px; }
        section { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 20px 24px; }
        h2 { margin: 0 0 4px; font-size: 16px; display: flex; gap: 12px; align-items: baseline; }
        .ratio { font-size: 13px; color: #b42323; background: #fdecec; border-radius: 999px; padding: 2px 10px; }
        .stats { margin: 0 0 8px; color: var(--muted); }
        pre { white-space: pre-wrap; background: #f1f5f9; padding: 10px 12px; border-radius: 8px; font-size: 12px; }
        .row { display: flex; gap: 16px; align-items: flex-start; }
        /* Expected, actual and diff always share one row, shrinking large images to fit. */
        .row figure { margin: 0; flex: 0 1 auto; min-width: 0; max-width: calc((100% - 32px) / 3); }
        figure { margin: 0; }
        figcaption { font-size: 12px; color: var(--muted); margin-bottom: 4px; text-transform: uppercase; letter-spacing: .04em; }
        img { display: block; max-width: 100%; height: auto; image-rendering: pixelated;
              background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px; border: 1px solid var(--line); }
        .missing { padding: 24px; border: 1px dashed var(--line); color: var(--muted); }
        .compare { margin-top: 16px; display: inline-block; }
        .modes { display: flex; gap: 16px; margin-bottom: 8px; }
        .stage { position: relative; display: inline-block; }
        .stage .over { position: absolute; top: 0; left: 0; }
        .divider { position: absolute; top: 0; bottom: 0; width: 2px; background: var(--accent); pointer-events: none; }
        .amount { width: 100%; }
        .legend { display: flex; justify-content: space-between; font-size: 12px; color: var(--muted); }
        .review { display: flex; gap: 8px; align-items: center; margin: 8px 0; }
        .review button { font: inherit; padding: 4px 14px; border-radius: 8px; border: 1px solid var(--line); cursor: pointer; }
        .review .accept { background: var(--accent); color: #fff; border-color: var(--accent); }
        section.done { opacity: .55; }
        </style>
        </head>
        <body>
        <header><h1>\(title)</h1>\(summary)</header>
        <main>
        \(body)
        </main>
        <script>
        for (const compare of document.querySelectorAll('.compare')) {
          const over = compare.querySelector('.over'), divider = compare.querySelector('.divider');
          const amount = compare.querySelector('.amount');
          const update = () => {
            const mode = compare.querySelector('input[type=radio]:checked').value, value = amount.value;
            if (mode === 'slider') {
              over.style.opacity = 1; over.style.clipPath = `inset(0 0 0 ${value}%)`;
              divider.style.display = 'block'; divider.style.left = `${value}%`;
            } else {
              over.style.clipPath = 'none'; over.style.opacity = value / 100; divider.style.display = 'none';
            }
          };
          amount.addEventListener('input', update);
          for (const radio of compare.querySelectorAll('input[type=radio]')) radio.addEventListener('change', update);
          update();
        }
        \(reviewToken.map(reviewScript) ?? "")
        </script>
        </body>
        </html>
        """
    }

    /// The review page's buttons: each posts the section's golden name to `/accept` or `/reject`
    /// with the page's token in a header (a page of another origin cannot send one without a
    /// preflight, which the server never allows), then shows the outcome in place.
    private static func reviewScript(_ token: String) -> String {
        """
        const reviewToken = '\(token)';
        for (const controls of document.querySelectorAll('.review')) {
          const section = controls.closest('section'), status = controls.querySelector('.status');
          for (const button of controls.querySelectorAll('button')) {
            button.addEventListener('click', async () => {
              for (const other of controls.querySelectorAll('button')) other.disabled = true;
              const reply = await fetch('/' + button.dataset.verdict, {method: 'POST',
                headers: {'X-RasterKit-Review': reviewToken, 'Content-Type': 'text/plain'}, body: controls.dataset.golden});
              const answer = await reply.json().catch(() => ({error: reply.statusText}));
              status.textContent = reply.ok ? answer.message : 'not done: ' + answer.error;
              if (reply.ok) section.classList.add('done');
              else for (const other of controls.querySelectorAll('button')) other.disabled = false;
            });
          }
        }
        """
    }
}
