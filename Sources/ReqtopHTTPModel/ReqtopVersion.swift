/// reqtop's version, as `--version`, the default User-Agent and HAR's creator show it.
public enum ReqtopVersion {
    public static let string = "0.1.0"
}
