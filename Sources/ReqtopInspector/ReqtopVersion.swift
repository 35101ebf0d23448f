/// The version `reqtop --version` prints.
public enum ReqtopVersion {
    public static let current = "0.1.0"
}
