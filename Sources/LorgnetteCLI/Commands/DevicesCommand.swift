import ArgumentParser
import Capture
import Foundation
import VirtualCamera

/// `lorgnette devices`: every V4L2 capture device with its formats, sizes and frame rates.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the cameras (V4L2 capture devices) with their formats, sizes and frame rates, and the output devices.",
        discussion: """
            Shows each /dev/videoN node that can capture video, its product name, driver and bus, \
            the stable /dev/v4l/by-id and by-path names that survive re-plugging, and every native \
            pixel format with its frame sizes and rates. Metadata nodes are left out. \
            Use a listed path or stable name with `lorgnette record --device`. \
            Output devices (v4l2loopback virtual cameras nobody writes to yet) are listed apart: \
            give one to `lorgnette live --output`.
            """
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let (devices, problems) = CaptureDevices.list()
        let outputs = OutputDevices.list()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let listing = DeviceListing(devices: devices.map(DeviceListing.Device.init), outputs: outputs, problems: problems)
            print(String(decoding: try encoder.encode(listing), as: UTF8.self))
            return
        }
        for problem in problems { printError("warning: \(problem)") }
        if devices.isEmpty {
            printError("no V4L2 capture devices found (no /dev/video* node that can capture video)")
        }
        for (i, device) in devices.enumerated() {
            if i > 0 { print("") }
            print(Self.describe(device))
        }
        if !outputs.isEmpty {
            if !devices.isEmpty { print("") }
            print("Output devices (virtual cameras for `lorgnette live --output`):")
            for output in outputs {
                print("\(output.path): \(output.name)")
                print("  driver \(output.driver), \(output.capabilities.joined(separator: ", "))")
                for name in output.stableNames { print("  also \(name)") }
            }
        }
    }

    static func describe(_ device: DeviceDescription) -> String {
        var lines = ["\(device.devicePath): \(device.name)"]
        lines.append("  driver \(device.driver) \(device.driverVersion), bus \(device.bus)")
        for name in device.stableNames { lines.append("  also \(name)") }
        for format in device.formats {
            var tags: [String] = []
            if format.compressed { tags.append("compressed") }
            if format.emulated { tags.append("converted by libv4l2") }
            lines.append("  \(format.fourcc)  \(format.description)\(tags.isEmpty ? "" : " (\(tags.joined(separator: ", ")))")")
            for size in format.sizes {
                lines.append("    \(size.width)x\(size.height)  \(rates(size))")
            }
            if let r = format.sizeRange {
                lines.append("    \(r.minWidth)x\(r.minHeight) to \(r.maxWidth)x\(r.maxHeight) in steps of \(r.stepWidth)x\(r.stepHeight)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func rates(_ size: FrameSizeOption) -> String {
        if let range = size.intervalRange, let fast = range.min.framesPerSecond, let slow = range.max.framesPerSecond {
            return "\(formatRate(slow))-\(formatRate(fast)) fps"
        }
        let fps = size.intervals.compactMap(\.framesPerSecond)
        return fps.isEmpty ? "(rates not listed)" : fps.map(formatRate).joined(separator: ", ") + " fps"
    }
}

/// The JSON shape of `lorgnette devices --json` (snake_case keys): rates are given both as V4L2 intervals and as fps.
private struct DeviceListing: Encodable {
    struct Size: Encodable {
        var width: Int
        var height: Int
        var fps: [Double]
        var intervals: [String]
        var intervalRange: IntervalRange?
    }

    struct Format: Encodable {
        var fourcc: String
        var description: String
        var compressed: Bool
        var emulated: Bool
        var sizes: [Size]
        var sizeRange: SizeRange?
    }

    struct Device: Encodable {
        var path: String
        var stableNames: [String]
        var name: String
        var driver: String
        var driverVersion: String
        var bus: String
        var capabilities: [String]
        var formats: [Format]

        init(_ d: DeviceDescription) {
            path = d.devicePath
            stableNames = d.stableNames
            name = d.name
            driver = d.driver
            driverVersion = d.driverVersion
            bus = d.bus
            capabilities = d.capabilities
            formats = d.formats.map { f in
                Format(fourcc: f.fourcc.description, description: f.description, compressed: f.compressed, emulated: f.emulated,
                       sizes: f.sizes.map { s in
                           Size(width: s.width, height: s.height, fps: s.intervals.compactMap(\.framesPerSecond),
                                intervals: s.intervals.map(\.description), intervalRange: s.intervalRange)
                       },
                       sizeRange: f.sizeRange)
            }
        }
    }

    var devices: [Device]
    /// V4L2 output devices (added with the virtual camera; readers of the earlier shape ignore it).
    var outputs: [OutputDeviceDescription]
    var problems: [String]
}
