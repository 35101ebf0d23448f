/// Something that draws itself into a buffer area and keeps no state between frames.
public protocol Widget {
    func render(area: Rect, buffer: inout Buffer)
}

/// A widget whose scroll/selection state lives beside it, passed in at each render.
public protocol StatefulWidget {
    associatedtype State
    func render(area: Rect, buffer: inout Buffer, state: inout State)
}
