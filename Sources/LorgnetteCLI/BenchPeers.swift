import Foundation

/// One peer system timed on the bench's frames.
struct BenchPeer: Codable {
    var name: String
    var landmarks: Int
    var versions: String
    var milliseconds: LatencySummary
    var facesFoundPercent: Double
    /// Peer p50 over our tracker's p50 on the same frames (> 1: we are faster).
    var ratioToOurTrack: Double
}

/// Peers (MediaPipe face mesh, dlib) timed by `Bench/Peers/peer_timing.py` on the frames of one run.
struct BenchPeerReport: Codable {
    /// Which run's frames the peers saw.
    var workload: String
    /// Our "track" stage p50 (detection/landmarks/pose/smoothing on decoded pixels), the peers' counterpart.
    var ourTrackP50: Double
    var peers: [BenchPeer]
    var skipped: [String]

    func markdown() -> String {
        var s = "## Peers on the same frames (\(workload))\n\n"
        s += "Timed on decoded frames, like our track stage (p50 \(String(format: "%.2f", ourTrackP50)) ms). Ratio = peer p50 / ours.\n\n"
        if !peers.isEmpty {
            s += "| peer | landmarks | p50 | p95 | p99 | faces found | ratio to ours |\n|---|---:|---:|---:|---:|---:|---:|\n"
            for p in peers {
                s += String(format: "| %@ (%@) | %d | %.2f | %.2f | %.2f | %.0f %% | %.2fx |\n", p.name, p.versions, p.landmarks,
                            p.milliseconds.p50, p.milliseconds.p95, p.milliseconds.p99, p.facesFoundPercent, p.ratioToOurTrack)
            }
        }
        for reason in skipped { s += "\nSkipped: \(reason)\n" }
        return s
    }
}

/// Runs the peer timing script when python3 is installed; every reason not to is a skip message.
enum BenchPeers {
    static func script() throws -> URL {
        try ModelsDirectory.locate().deletingLastPathComponent().appendingPathComponent("Bench/Peers/peer_timing.py")
    }

    static func python() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes the stream of `workload` (`count` frames) as JPEGs, times the peers on it and compares
    /// them with `ourTrackP50`.
    static func run(_ workload: BenchWorkload, count: Int, warmup: Int, ourTrackP50: Double) -> BenchPeerReport {
        var report = BenchPeerReport(workload: "\(workload.name) at \(workload.width)x\(workload.height), \(count) frames",
                                     ourTrackP50: ourTrackP50, peers: [], skipped: [])
        guard let python = python() else {
            report.skipped.append("peers: python3 not found on PATH")
            return report
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lorgnette-bench-peers-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let script = try script()
            guard FileManager.default.fileExists(atPath: script.path) else {
                report.skipped.append("peers: \(script.path) not found")
                return report
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for i in 0..<count {
                try Data(workload.jpeg(i)).write(to: folder.appendingPathComponent(String(format: "frame_%06d.jpg", i)))
            }
            let output = folder.appendingPathComponent("peers.json")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [script.path, "--frames", folder.path, "--warmup", String(warmup), "--json", output.path]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            // Drain stderr while waiting: MediaPipe logs enough to fill a pipe.
            let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let last = errorText.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
                report.skipped.append("peers: peer_timing.py failed: \(last)")
                return report
            }
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any] ?? [:]
            for peer in object["peers"] as? [[String: Any]] ?? [] {
                let samples = (peer["samples_ms"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
                let summary = LatencySummary(samples)
                let frames = max(peer["frames"] as? Int ?? samples.count, 1)
                report.peers.append(BenchPeer(name: peer["name"] as? String ?? "?", landmarks: peer["landmarks"] as? Int ?? 0,
                                              versions: peer["versions"] as? String ?? "",
                                              milliseconds: summary,
                                              facesFoundPercent: 100 * Double(peer["faces_found"] as? Int ?? 0) / Double(frames),
                                              ratioToOurTrack: ourTrackP50 > 0 ? summary.p50 / ourTrackP50 : 0))
            }
            for skip in object["skipped"] as? [[String: Any]] ?? [] {
                report.skipped.append("\(skip["name"] as? String ?? "peer"): \(skip["reason"] as? String ?? "skipped")")
            }
        } catch {
            report.skipped.append("peers: \(error)")
        }
        return report
    }
}
