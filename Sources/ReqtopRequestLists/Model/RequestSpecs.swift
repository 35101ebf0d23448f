/// The requests of a list, in order.
///
/// A list from a long `.http` file (`HTTPFileParser.writtenRequestsThreshold`) keeps where each
/// request is written rather than the parsed requests, and parses a request again each time it is
/// read: a `RequestSpec` with its strings is about 250 bytes, and 100,000 of them were most of a
/// long run's memory; where a request starts is 8 bytes.
public struct RequestSpecs: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        case parsed([RequestSpec])
        case written(WrittenRequests)
    }

    private let storage: Storage

    public init(_ specs: [RequestSpec]) { storage = .parsed(specs) }
    public init(arrayLiteral specs: RequestSpec...) { storage = .parsed(specs) }
    init(written: WrittenRequests) { storage = .written(written) }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .parsed(let specs): specs.count
        case .written(let written): written.blocks.count
        }
    }

    public subscript(position: Int) -> RequestSpec {
        switch storage {
        case .parsed(let specs): specs[position]
        case .written(let written): written.request(at: position)
        }
    }

    /// The index and name of every named request, in order (a long list knows them without parsing its requests again).
    public var names: [(index: Int, name: String)] {
        switch storage {
        case .parsed(let specs): specs.indices.compactMap { index in specs[index].name.map { (index, $0) } }
        case .written(let written): written.names
        }
    }

    /// Whether the request at `index` is known to resolve as written without reading it
    /// (`RequestResolver.resolvesAsWritten`, noted when a long list was first parsed).
    func resolvesAsWritten(_ index: Int) -> Bool {
        if case .written(let written) = storage { written.resolvesAsWritten[index] } else { false }
    }

    /// Whether the requests are parsed again when read (a long `.http` list).
    public var isReadFromText: Bool {
        if case .written = storage { true } else { false }
    }
}

/// Where the requests of a long `.http` text are written, to parse each again when it is read.
struct WrittenRequests: Sendable {
    /// Where a request's block starts: its byte offset in the text and its 0-based line.
    struct Block: Sendable {
        var byte: UInt32
        var line: UInt32
    }

    /// Where the text is: in memory, or in a file read again where a request is written.
    enum Source: Sendable {
        case text(String)
        case file(ListFile)
    }

    let source: Source
    let path: String
    let blocks: [Block]
    /// Requests whose block's `### name` was not taken (another request had that name).
    let droppedNames: Set<Int>
    /// Each named request's index and name.
    let names: [(index: Int, name: String)]
    /// Requests that resolve as written: validation need not read them.
    let resolvesAsWritten: BitSet

    init(source: Source, path: String, blocks: [Block], droppedNames: Set<Int>, names: [(index: Int, name: String)],
         resolvesAsWritten: BitSet) {
        self.names = names
        self.resolvesAsWritten = resolvesAsWritten
        self.source = source
        self.path = path
        self.blocks = blocks
        self.droppedNames = droppedNames
    }

    func request(at index: Int) -> RequestSpec {
        let block = blocks[index]
        let spec: RequestSpec?
        switch source {
        case .text(var text):
            spec = text.withUTF8 { buffer in
                HTTPFileParser.request(in: buffer, block: block, dropsName: droppedNames.contains(index), path: path)
            }
            // The same bytes parsed without error the first time, so they do again.
            guard let spec else { preconditionFailure("request #\(index + 1) of \(path) did not parse again") }
            return spec
        case .file(let file):
            // Its bytes run to the next request's start (or the end): read where they lie, block offset 0.
            let end = index + 1 < blocks.count ? Int(blocks[index + 1].byte) : file.size
            spec = file.withBytes(Int(block.byte)..<end) { buffer in
                HTTPFileParser.request(in: buffer, block: Block(byte: 0, line: block.line), dropsName: droppedNames.contains(index), path: path)
            } ?? nil
        }
        if let spec { return spec }
        // The file changed since it was read: this request is not sent, and says why.
        var refused = RequestSpec(name: nil, url: "")
        refused.location = SourceLocation(file: path, line: Int(block.line) + 1, column: 1)
        refused.refusal = RequestListError(file: path, line: Int(block.line) + 1, column: 1,
                                           message: "not sent: \(path) changed since it was read (request #\(index + 1) is no longer what was checked)",
                                           lineText: "")
        return refused
    }
}

/// One bit per index, appended in order.
struct BitSet: Sendable {
    private var words: [UInt64] = []
    private(set) var count = 0

    mutating func append(_ bit: Bool) {
        if count % 64 == 0 { words.append(0) }
        if bit { words[count / 64] |= 1 << UInt64(count % 64) }
        count += 1
    }

    /// False past the end.
    subscript(index: Int) -> Bool {
        index < count && words[index / 64] & (1 << UInt64(index % 64)) != 0
    }
}
