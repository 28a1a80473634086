import Foundation
import PreviewServer
import Testing

/// The page, status, catalogue and frame switching, and what bad requests get back.
@Suite(.serialized)
struct RequestValidationTests {
    @Test func pageStatusAndCatalogueAnswer() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            let (page, status, frames, thumb, snapshot) = try await blocking {
                _ = PreviewHarness.eventually(2) { harness.server.engineState != nil }
                return (try LoopbackHTTP.get(port, "/"), try LoopbackHTTP.get(port, "/status"), try LoopbackHTTP.get(port, "/frames"),
                        try LoopbackHTTP.get(port, "/thumbnail?frame=round-47%3Agold"), try LoopbackHTTP.get(port, "/snapshot.jpg"))
            }
            #expect(page.status == 200)
            #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("/stream.mjpg") && page.text.contains("id=\"carousel\""))

            let json = try #require(status.json)
            #expect(json["fps"] as? Double == 30)
            #expect(json["latencyMs"] as? Double == 12.5)
            #expect((json["tracking"] as? [String: Any])?["state"] as? String == "tracking")
            #expect(json["glasses"] as? String == "round-47")
            #expect(json["frameIndex"] is Int)
            #expect((json["metrics"] as? [String: Any])?["pdMM"] as? Double == 63.2)
            #expect((json["metrics"] as? [String: Any])?["recommendedSize"] as? String == "52□18-145")
            #expect((json["light"] as? [String: Any])?["colorTemperatureK"] as? Double == 5200)
            #expect((json["stream"] as? [String: Any])?["maxClients"] as? Int == 8)

            let list = try #require(frames.json)
            #expect((list["frames"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["round-47", "square-52", "aviator-58"])

            #expect(thumb.status == 200 && thumb.headers["content-type"] == "image/jpeg")
            #expect(thumb.body.prefix(2) == [0xFF, 0xD8])
            #expect(snapshot.status == 200 && snapshot.body.prefix(2) == [0xFF, 0xD8])
        }
    }

    @Test func postingAFrameSelectsIt() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            let reply = try await blocking { try LoopbackHTTP.postJSON(port, "/frame", #"{"frame": "aviator-58:silver"}"#) }
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json?["frame"] as? String == "aviator-58:silver")
            #expect(harness.control.selections == ["aviator-58:silver"])
        }
    }

    static let badRequests: [(method: String, path: String, body: String, type: String, status: Int, says: String)] = [
        ("GET", "/nope", "", "", 404, "no such page"),
        ("GET", "/stream.mjpg/extra", "", "", 404, "no such page"),
        ("DELETE", "/status", "", "", 404, "no such page"),
        ("POST", "/frame", "{not json", "application/json", 400, "expected JSON"),
        ("POST", "/frame", #"{"model": "round-47"}"#, "application/json", 400, "expected JSON"),
        ("POST", "/frame", #"{"frame": 7}"#, "application/json", 400, "expected JSON"),
        ("POST", "/frame", "", "application/json", 400, "expected JSON"),
        ("POST", "/frame", #"{"frame": "no-such-frame"}"#, "application/json", 422, "unknown frame"),
        ("POST", "/frame", #"{"frame": "round-47:purple"}"#, "application/json", 422, "unknown frame"),
        ("POST", "/frame", #"{"frame": "/etc/passwd.obj"}"#, "application/json", 422, "unknown frame"),
        ("POST", "/frame", "frame=round-47", "application/x-www-form-urlencoded", 415, "send JSON"),
        ("POST", "/frame", String(repeating: "x", count: 5000), "application/json", 413, "over 4096"),
        ("GET", "/thumbnail", "", "", 400, "missing"),
        ("GET", "/thumbnail?frame=zzz", "", "", 404, "unknown frame"),
    ]

    @Test func badRequestsGetA4xxWithAMessage() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            for bad in Self.badRequests {
                let (reply, after) = try await blocking { () throws -> (HTTPReply, Int) in
                    (try LoopbackHTTP.request(port: port, method: bad.method, path: bad.path,
                                              contentType: bad.type.isEmpty ? nil : bad.type, body: Array(bad.body.utf8)),
                     try LoopbackHTTP.get(port, "/status").status)
                }
                #expect(reply.status == bad.status, "\(bad.method) \(bad.path) \(bad.body.prefix(40)): \(reply.status) \(reply.text)")
                let message = reply.json?["error"] as? String ?? ""
                #expect(message.contains(bad.says), "\(bad.method) \(bad.path): message '\(message)'")
                #expect(after == 200, "the server must still answer after \(bad.method) \(bad.path)")
            }
            #expect(harness.control.selections.isEmpty)
        }
    }

    @Test func addressesParse() throws {
        #expect(try PreviewConfiguration.parse("127.0.0.1:8080") == ("127.0.0.1", 8080))
        #expect(try PreviewConfiguration.parse(":0") == ("127.0.0.1", 0))
        #expect(try PreviewConfiguration.parse("9000") == ("127.0.0.1", 9000))
        #expect(try PreviewConfiguration.parse("0.0.0.0:80") == ("0.0.0.0", 80))
        #expect(try PreviewConfiguration.parse("[::1]:8081") == ("::1", 8081))
        #expect(throws: PreviewError.self) { try PreviewConfiguration.parse("localhost:99999") }
        #expect(throws: PreviewError.self) { try PreviewConfiguration.parse("host:port") }
        #expect(throws: PreviewError.self) { try PreviewConfiguration.parse("[::1]8080") }
    }

    @Test func aPortInUseIsAClearError() async throws {
        try await PreviewHarness.with { harness in
            let second = PreviewServer(configuration: PreviewConfiguration(host: "127.0.0.1", port: harness.port), control: FakeControl())
            await #expect {
                _ = try await second.start()
            } throws: { error in
                "\(error)".contains("cannot serve on 127.0.0.1:\(harness.port)")
            }
        }
    }
}
