// swift-format-ignore-file
// (A stub of Apple API, for type-checking only; Apple documents these declarations.)
// The part of Combine that Sources/PlayerObservation/PlayerModelObject.swift uses, with the
// SDK's Swift signatures (iOS 13 / macOS 10.15 on), so that .ci/combine-typecheck can
// type-check that file on Linux, where Combine does not exist. Bodies do nothing.

public protocol Publisher<Output, Failure> {
  associatedtype Output
  associatedtype Failure: Error
}

public final class ObservableObjectPublisher: Publisher {
  public typealias Output = Void
  public typealias Failure = Never
  public init() {}
  public func send() {}
}

public protocol ObservableObject: AnyObject {
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// Class properties only, as in the SDK: `wrappedValue` is unavailable, and an instance's
/// property is read and written through the enclosing-instance subscript.
@propertyWrapper
public struct Published<Value> {
  private var value: Value

  public init(wrappedValue: Value) { value = wrappedValue }
  public init(initialValue: Value) { value = initialValue }

  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }

  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].value }
    set { object[keyPath: storageKeyPath].value = newValue }
  }

  public struct Publisher: Combine.Publisher {
    public typealias Output = Value
    public typealias Failure = Never
  }

  public var projectedValue: Publisher {
    mutating get { Publisher() }
    set {}
  }
}
