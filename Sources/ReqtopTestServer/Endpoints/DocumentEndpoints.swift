/// `/html`, `/xml` and `/json`: fixed documents of each kind, for the body views.
enum DocumentEndpoints {
    static let html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Herman Melville - Moby-Dick</title>
        <style>
          body { font-family: serif; }
          p.lead { margin: 0 }
        </style></head>
        <body><h1>Moby-Dick</h1><p class="lead">Call me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world.</p>
        <ul><li><a href="/get">one</a><li>two<br>lines</ul>
        <script>
          if (document.title) { console.log("loaded"); }
        </script></body></html>

        """

    static let xml = """
        <?xml version='1.0' encoding='us-ascii'?>
        <!--  A SAMPLE set of slides  -->
        <slideshow title="Sample Slide Show" date="Date of publication" author="Yours Truly"><slide type="all"><title>Wake up to WonderWidgets!</title></slide><slide type="all"><title>Overview</title><item>Why <em>WonderWidgets</em> are great</item><item/><item>Who <em>buys</em> WonderWidgets</item></slide></slideshow>

        """

    /// Members in a deliberate order (not sorted), empty and nested containers, numbers as written.
    static let json = #"{"zeta":1,"alpha":{"empty":{},"list":[],"nested":{"deep":[1,2.50,-3e2,{"k":null}]}},"text":"caf\u00e9 \"q\"","ok":true}"#

    static func respond(_ exchange: Exchange, _ kind: String) throws -> Disposition {
        let (type, body): (String, String) = switch kind {
        case "html": ("text/html; charset=utf-8", html)
        case "xml": ("application/xml", xml)
        default: ("application/json", json)
        }
        return try exchange.respond(status: 200, headers: [("Content-Type", type)], body: Array(body.utf8))
    }
}
