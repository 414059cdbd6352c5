// A gRPC contract read from a FileDescriptorSet (`protoc
// --descriptor_set_out=all.pb --include_imports`): what mock_service(
// descriptors=) and client(descriptors=, grpc_service=) are checked against
// while the spec loads, and what the gRPC mock and the gRPC client encode
// and decode messages with at run time. libprotobuf does the work (its
// DescriptorPool, DynamicMessageFactory and JSON mapping) in a module of
// fbc's own, libfbc-protobuf.so beside fbc's executable
// (ir/protobuf/grpc_protobuf.cpp), loaded the first time a spec names a
// descriptor set: linked, libprotobuf would cost every fbc process its
// start-up memory (docs/architecture.md, "Dependencies").
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir {

struct GrpcMethod {
  std::string path;          // "/orders.Orders/Get": the HTTP/2 :path, the routes' key
  std::string service;       // "orders.Orders"
  std::string name;          // "Get"
  std::string input, output; // the message types' full names
  bool streaming = false;    // client or server streaming (fbc makes unary calls only)
};

class GrpcDescriptors {
public:
  // The set in `bytes` (a file's contents); null and why when it is not a
  // FileDescriptorSet whose files build (each file's imports in the set),
  // or the module could not be loaded.
  static std::shared_ptr<const GrpcDescriptors> read(std::string_view bytes, std::string &error);
  virtual ~GrpcDescriptors() = default;

  // Every method of every service, sorted by path.
  const std::vector<GrpcMethod> &methods() const { return methods_; }
  const GrpcMethod *findMethod(std::string_view path) const;
  // The services' full names, sorted.
  std::vector<std::string> services() const;

  // JSON text (protobuf's JSON mapping: field names as in the .proto or in
  // lowerCamelCase; "null" is the empty message) as message `type`'s binary
  // encoding; false and why (a field the message lacks, a value of the
  // wrong type).
  virtual bool encode(const std::string &type, std::string_view json, std::string &out,
                      std::string &error) const = 0;
  // A binary message of `type` as compact JSON text (field names as in the
  // .proto, fields at their default value included); false and why.
  virtual bool decode(const std::string &type, std::string_view bytes, std::string &out,
                      std::string &error) const = 0;

protected:
  std::vector<GrpcMethod> methods_; // the module fills it, sorted
};

// The module's entry point: a new set read from `bytes`, or null and why.
using GrpcDescriptorsReader = GrpcDescriptors *(*)(std::string_view bytes, std::string &error);
inline constexpr const char *kGrpcDescriptorsReader = "fbc_read_grpc_descriptors";
inline constexpr const char *kGrpcDescriptorsModule = "libfbc-protobuf.so";

} // namespace fbc::ir
