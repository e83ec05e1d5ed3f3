/// The handouts' one style sheet, embedded in every page so a page works alone from `file://` and in print.
enum HTMLStyleSheet {
    static let css = """
    :root { --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --paper: #ffffff; --tint: #f5f5f7;
            --accent: #2358a6; --code: #f6f8fa; --quote: #3c3c43;
            --kw: #a626a4; --ty: #0b7285; --st: #b3261e; --nu: #1c5fb8; --co: #5f7f4f; --at: #8a6100; }
    @media screen and (prefers-color-scheme: dark) {
        :root { --ink: #e4e4e7; --muted: #a1a1aa; --rule: #3f3f46; --paper: #18181b; --tint: #232327;
                --accent: #8ab4f8; --code: #1f2023; --quote: #c4c4cc;
                --kw: #e38ee6; --ty: #5cc8d6; --st: #f28b82; --nu: #8ab4f8; --co: #9ab98a; --at: #e0b45c; }
    }
    * { box-sizing: border-box; }
    html { font-size: 17px; }
    /* overflow-wrap: a long file or method name breaks rather than widening the page on a phone. */
    body { margin: 0; color: var(--ink); background: var(--paper); overflow-wrap: break-word;
           font-family: "Noto Serif", "DejaVu Serif", Georgia, serif; line-height: 1.55; }
    main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
    h1, h2, h3, h4, h5, h6, nav, .kicker, .meta, figcaption, table, .lesson-list, .toc {
        font-family: "Noto Sans", "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; }
    h1 { font-size: 2rem; line-height: 1.2; margin: 0.2rem 0 1rem; }
    h2 { font-size: 1.4rem; margin-top: 2.2rem; border-bottom: 1px solid var(--rule); padding-bottom: 0.2rem; }
    h3 { font-size: 1.15rem; margin-top: 1.6rem; }
    h4, h5, h6 { font-size: 1rem; margin-top: 1.2rem; }
    a { color: var(--accent); }
    nav.pages { display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; font-size: 0.9rem; padding: 0.6rem 0;
                border-bottom: 1px solid var(--rule); margin-bottom: 1rem; }
    nav.pages .spacer { flex: 1; }
    nav.pages.bottom { border-bottom: 0; border-top: 1px solid var(--rule); margin: 2rem 0 0; }
    .kicker { color: var(--muted); font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.06em; margin: 0; }
    .languages a, .languages strong { margin-left: 0.5rem; }
    .toc { background: var(--tint); border-radius: 6px; padding: 0.6rem 1rem; font-size: 0.92rem; margin: 1rem 0; }
    .toc h2 { font-size: 0.95rem; margin: 0.2rem 0; border: 0; }
    .toc ol, .toc ul { margin: 0.2rem 0; padding-left: 1.3rem; }
    code { font-family: "DejaVu Sans Mono", "Noto Sans Mono", Menlo, Consolas, monospace; font-size: 0.88em;
           background: var(--code); border-radius: 3px; padding: 0.05em 0.25em; }
    pre { background: var(--code); border: 1px solid var(--rule); border-radius: 6px; padding: 0.8rem 1rem;
          overflow-x: auto; line-height: 1.4; }
    pre code { background: none; padding: 0; font-size: 0.82rem; }
    figure.code { margin: 1rem 0; }
    figure.code pre { margin: 0; border-top-left-radius: 0; border-top-right-radius: 0; }
    figcaption { font-size: 0.78rem; color: var(--muted); background: var(--tint); border: 1px solid var(--rule);
                 border-bottom: 0; border-radius: 6px 6px 0 0; padding: 0.25rem 1rem; }
    .kw { color: var(--kw); font-weight: 600; } .ty { color: var(--ty); } .st { color: var(--st); }
    .nu { color: var(--nu); } .co { color: var(--co); font-style: italic; } .at, .di { color: var(--at); }
    .raw-html { color: var(--muted); }
    blockquote { margin: 1rem 0; padding: 0.1rem 1rem; border-left: 4px solid var(--rule); color: var(--quote); }
    /* A table wider than the screen scrolls by itself instead of widening the whole page (phones). */
    table { border-collapse: collapse; margin: 1rem 0; font-size: 0.92rem;
            display: block; width: max-content; max-width: 100%; overflow-x: auto; }
    th, td { border: 1px solid var(--rule); padding: 0.3rem 0.6rem; vertical-align: top; }
    th { background: var(--tint); text-align: left; }
    .left { text-align: left; } .center { text-align: center; } .right { text-align: right; }
    img { max-width: 100%; }
    hr { border: 0; border-top: 1px solid var(--rule); margin: 2rem 0; }
    .meta { border-top: 2px solid var(--rule); margin-top: 2.5rem; padding-top: 0.6rem; font-size: 0.9rem; }
    .meta dt { font-weight: 600; margin-top: 0.5rem; } .meta dd { margin-left: 0; }
    .lesson-list { list-style: none; padding: 0; }
    .lesson-list > li { display: grid; grid-template-columns: 2.2rem 1fr; padding: 0.6rem 0;
                        border-bottom: 1px solid var(--rule); }
    .lesson-list > li > * { min-width: 0; }
    .lesson-list .number { font-size: 1.3rem; color: var(--muted); }
    .lesson-list .title { font-weight: 600; }
    .lesson-list p { margin: 0.15rem 0; font-size: 0.9rem; }
    .lesson-list .sources { color: var(--muted); font-size: 0.8rem; }
    .coming { display: inline-block; font-size: 0.72rem; text-transform: uppercase; letter-spacing: 0.05em;
              color: var(--muted); border: 1px solid var(--rule); border-radius: 3px; padding: 0 0.35rem;
              margin-left: 0.4rem; }
    section.lesson + section.lesson { border-top: 2px solid var(--rule); margin-top: 3rem; }
    @media print {
        html { font-size: 11pt; }
        main { max-width: none; padding: 0; }
        nav.pages, .no-print { display: none; }
        section.lesson { break-before: page; }
        section.lesson + section.lesson { border: 0; margin: 0; }
        /* Paper cannot scroll: long code lines wrap (anywhere, if they must) instead of being cut off, and a
           tall code block continues on the next page instead of leaving this one mostly blank. */
        pre { white-space: pre-wrap; overflow-wrap: anywhere; overflow: visible; orphans: 4; widows: 4; }
        figure.code, pre { break-inside: auto; }
        figcaption { break-after: avoid; }
        table { display: table; width: auto; max-width: none; overflow: visible; }
        table, blockquote { break-inside: avoid; }
        h1, h2, h3, h4 { break-after: avoid; }
        a { color: inherit; text-decoration: none; }
    }
    """
}
