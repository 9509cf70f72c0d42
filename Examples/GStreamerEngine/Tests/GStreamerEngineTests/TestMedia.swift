import Foundation

/// Media files the tests write for themselves: no fixture, no network.
enum TestMedia {
  /// A mono 16-bit PCM WAV file of `milliseconds` of a 440 Hz tone at
  /// `sampleRate`: a 44-byte RIFF header, then the samples.
  static func wav(milliseconds: Int, sampleRate: Int = 8_000) -> Data {
    let samples = sampleRate * milliseconds / 1_000
    var data = Data()
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    data.append(contentsOf: Array("RIFF".utf8))
    append(UInt32(36 + samples * 2))
    data.append(contentsOf: Array("WAVE".utf8))
    data.append(contentsOf: Array("fmt ".utf8))
    append(UInt32(16))  // fmt chunk size
    append(UInt16(1))  // PCM
    append(UInt16(1))  // mono
    append(UInt32(sampleRate))
    append(UInt32(sampleRate * 2))  // byte rate
    append(UInt16(2))  // block align
    append(UInt16(16))  // bits per sample
    data.append(contentsOf: Array("data".utf8))
    append(UInt32(samples * 2))
    for index in 0..<samples {
      let phase = 2 * Double.pi * 440 * Double(index) / Double(sampleRate)
      append(Int16(sin(phase) * 8_000))
    }
    return data
  }

  /// A WAV file of 500 ms whose format chunk is broken: format tag 0xFFFF, no
  /// channels, a zero sample rate and block alignment. The RIFF/WAVE header is intact,
  /// so the type is found and the WAV parser fails on the data.
  static func corruptWav() -> Data {
    var data = wav(milliseconds: 500)
    // Bytes 20..<36 are the fmt chunk's body: tag, channels, rate, byte rate, align, bits.
    data.replaceSubrange(20..<36, with: [0xFF, 0xFF] + Array(repeating: 0, count: 14))
    return data
  }

  /// Writes a WAV file (8 kHz unless `sampleRate` says otherwise) into a fresh temporary
  /// folder and returns its path.
  static func wavFile(milliseconds: Int, sampleRate: Int = 8_000) throws -> String {
    try file(
      named: "tone.wav", bytes: Array(wav(milliseconds: milliseconds, sampleRate: sampleRate)))
  }

  /// Writes ``corruptWav()`` into a fresh temporary folder and returns its path.
  static func corruptWavFile() throws -> String {
    try file(named: "corrupt.wav", bytes: Array(corruptWav()))
  }

  /// Writes `bytes` as `name` into a fresh temporary folder and returns its path.
  static func file(named name: String, bytes: [UInt8]) throws -> String {
    let file = try folder().appendingPathComponent(name)
    try Data(bytes).write(to: file)
    return file.path
  }

  /// A fresh, empty temporary folder.
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-gst-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
