// Widgets draw untrusted text through the sanitizer and measure it with display widths.
@_exported import ReqtopTerminalText
