/// True for an argument meant as a URL (`https://…`, `example.org/x`, `localhost:8080`), not a misspelt command.
func looksLikeURL(_ argument: String) -> Bool {
    argument.containsBytes("://") || argument.containsBytes(".") || argument.containsBytes(":") || argument.containsBytes("/")
}
