/// A complete, self-contained HTML page: no external style sheet, script, font or image from the network.
struct HTMLPage {
    var title: String
    var language: Language
    /// Already escaped HTML for the body's `<main>`.
    var body: String

    var rendered: String {
        """
        <!DOCTYPE html>
        <html lang="\(language.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(HTMLEscaping.escape(title))</title>
        <link rel="icon" href="data:,">
        <style>
        \(HTMLStyleSheet.css)
        </style>
        </head>
        <body>
        <main>
        \(body)</main>
        </body>
        </html>

        """
    }
}
