import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Postman's `{{$random…}}` dynamic variables (its faker set), the ones collections use most:
/// each occurrence gets a fresh value of the documented shape. Names Postman has that are not
/// here are refused, named, as any unknown dynamic variable is.
enum PostmanDynamicVariable {
    static let names: [String: @Sendable () -> String] = [
        "$randomUUID": { UUID().uuidString.lowercased() },
        "$randomAlphaNumeric": { String(pick(lower + digits)) },
        "$randomBoolean": { Bool.random() ? "true" : "false" },
        "$randomColor": { words(colors) },
        "$randomHexColor": { "#" + String(printf: "%06x", Int.random(in: 0..<0x1000000)) },
        "$randomAbbreviation": { words(["SQL", "PCI", "JSON", "XML", "HTTP", "SSL", "TCP", "RAM", "GB", "CSS"]) },
        "$randomIP": { (0..<4).map { _ in String(Int.random(in: 1...254)) }.joined(separator: ".") },
        "$randomIPV6": { (0..<8).map { _ in String(printf: "%lx", Int.random(in: 0...0xffff)) }.joined(separator: ":") },
        "$randomMACAddress": { (0..<6).map { _ in String(printf: "%02x", Int.random(in: 0...255)) }.joined(separator: ":") },
        "$randomPassword": { String((0..<15).map { _ in pick(lower + upper + digits) }) },
        "$randomPort": { String(Int.random(in: 1024...65535)) },
        "$randomUserAgent": { "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36" },
        "$randomSemver": { "\(Int.random(in: 0...9)).\(Int.random(in: 0...9)).\(Int.random(in: 0...9))" },
        "$randomFirstName": { words(firstNames) },
        "$randomLastName": { words(lastNames) },
        "$randomFullName": { words(firstNames) + " " + words(lastNames) },
        "$randomNamePrefix": { words(["Mr.", "Mrs.", "Ms.", "Dr."]) },
        "$randomNameSuffix": { words(["Jr.", "Sr.", "I", "II", "MD"]) },
        "$randomJobTitle": { words(["Engineer", "Designer", "Manager", "Analyst", "Consultant", "Architect"]) },
        "$randomUserName": { words(firstNames) + "." + words(lastNames) + String(Int.random(in: 1...99)) },
        "$randomEmail": { (words(firstNames) + "." + words(lastNames)).lowercased() + "@example.com" },
        "$randomExampleEmail": { (words(firstNames) + "." + words(lastNames)).lowercased() + "@example.org" },
        "$randomPhoneNumber": { "\(Int.random(in: 200...999))-\(Int.random(in: 200...999))-\(Int.random(in: 1000...9999))" },
        "$randomCity": { words(["Springfield", "Riverside", "Fairview", "Madison", "Georgetown", "Salem"]) },
        "$randomStreetName": { words(lastNames) + " Street" },
        "$randomStreetAddress": { "\(Int.random(in: 1...9999)) " + words(lastNames) + " Street" },
        "$randomCountry": { words(["France", "Japan", "Brazil", "Kenya", "Canada", "Norway"]) },
        "$randomCountryCode": { words(["FR", "JP", "BR", "KE", "CA", "NO"]) },
        "$randomLatitude": { String(printf: "%.4f", Double.random(in: -90...90)) },
        "$randomLongitude": { String(printf: "%.4f", Double.random(in: -180...180)) },
        "$randomCompanyName": { words(lastNames) + " " + words(["Inc", "LLC", "Group", "and Sons"]) },
        "$randomProductName": { words(adjectives) + " " + words(nouns) },
        "$randomProduct": { words(nouns) },
        "$randomPrice": { String(printf: "%.2f", Double.random(in: 1...1000)) },
        "$randomCurrencyCode": { words(["USD", "EUR", "JPY", "GBP", "BRL"]) },
        "$randomNoun": { words(nouns).lowercased() },
        "$randomVerb": { words(["parse", "connect", "index", "compress", "override", "navigate"]) },
        "$randomIngVerb": { words(["parsing", "connecting", "indexing", "compressing", "navigating"]) },
        "$randomAdjective": { words(adjectives).lowercased() },
        "$randomPhrase": { "Try to " + words(["parse", "connect", "index"]) + " the " + words(nouns).lowercased() + "!" },
        "$randomCatchPhrase": { words(adjectives) + " " + words(["solution", "platform", "framework"]) },
        "$randomDepartment": { words(["Books", "Garden", "Tools", "Music", "Toys"]) },
        "$randomProductAdjective": { words(adjectives) },
        "$randomProductMaterial": { words(["Steel", "Wooden", "Cotton", "Plastic"]) },
        "$randomImageUrl": { "http://placeimg.com/640/480" },
        "$randomAvatarImage": { "https://example.com/avatar/\(Int.random(in: 1...999)).jpg" },
        "$randomWord": { words(lorem) },
        "$randomWords": { (0..<Int.random(in: 2...5)).map { _ in words(lorem) }.joined(separator: " ") },
        "$randomLoremWord": { words(lorem) },
        "$randomLoremWords": { (0..<3).map { _ in words(lorem) }.joined(separator: " ") },
        "$randomLoremSentence": { sentence() },
        "$randomLoremSentences": { (0..<3).map { _ in sentence() }.joined(separator: " ") },
        "$randomLoremParagraph": { (0..<4).map { _ in sentence() }.joined(separator: " ") },
        "$randomLoremSlug": { (0..<3).map { _ in words(lorem) }.joined(separator: "-") },
        "$randomLoremText": { sentence() },
        "$randomUrl": { "https://" + words(lorem) + ".example.com" },
        "$randomDomainName": { words(lorem) + ".example.com" },
        "$randomDomainWord": { words(lorem) },
        "$randomDateFuture": { date(Double.random(in: 86_400...31_536_000)) },
        "$randomDatePast": { date(-Double.random(in: 86_400...31_536_000)) },
        "$randomDateRecent": { date(-Double.random(in: 0...86_400)) },
        "$randomMonth": { words(["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]) },
        "$randomWeekday": { words(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]) },
        "$randomBankAccount": { String((0..<8).map { _ in pick(digits) }) },
        "$randomFileName": { words(lorem) + "." + words(["txt", "pdf", "png", "json"]) },
        "$randomFileExtension": { words(["txt", "pdf", "png", "json"]) },
        "$randomMimeType": { words(["text/plain", "application/json", "image/png", "application/pdf"]) },
    ]

    static func generate(_ name: String) -> String? { names[name]?() }

    private static let lower = Array("abcdefghijklmnopqrstuvwxyz"), upper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), digits = Array("0123456789")
    private static let firstNames = ["Ada", "Grace", "Alan", "Linus", "Barbara", "Ken", "Margaret", "Dennis"]
    private static let lastNames = ["Lovelace", "Hopper", "Turing", "Torvalds", "Liskov", "Thompson", "Hamilton", "Ritchie"]
    private static let colors = ["red", "green", "blue", "orange", "purple", "teal", "gold"]
    private static let adjectives = ["Small", "Handmade", "Sleek", "Rustic", "Ergonomic"]
    private static let nouns = ["Chair", "Table", "Keyboard", "Lamp", "Bottle"]
    private static let lorem = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "tempor"]

    private static func pick(_ alphabet: [Character]) -> Character { alphabet.randomElement()! }
    private static func words(_ list: [String]) -> String { list.randomElement()! }
    private static func sentence() -> String {
        let text = (0..<Int.random(in: 5...9)).map { _ in words(lorem) }.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
    private static func date(_ offset: Double) -> String {
        DatePattern("EEE MMM dd yyyy HH:mm:ss 'GMT+0000'").string(from: Date().addingTimeInterval(offset))
    }
}
