// libfbc-protobuf.so, the module fbc loads the first time a spec names a
// descriptor set (ir/grpc_descriptors.h): libprotobuf's DescriptorPool
// builds the set, DynamicMessageFactory messages encode and decode through
// protobuf's JSON mapping. Built as a module of its own, beside fbc's
// executable (ir/CMakeLists.txt); nothing else links libprotobuf.
#include "ir/grpc_descriptors.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/descriptor_database.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>

namespace fbc::ir {

namespace pb = google::protobuf;

namespace {

// The first error a file's build reports (the pool reports each).
struct FirstError final : pb::DescriptorPool::ErrorCollector {
  std::string text;
  void AddError(const std::string &filename, const std::string &element, const pb::Message *,
                ErrorLocation, const std::string &message) override {
    if (text.empty())
      text = filename + (element.empty() ? "" : " (" + element + ")") + ": " + message;
  }
};

// libprotobuf's "colour: Cannot find field." in fbc's words, with the
// message's fields.
std::string jsonError(const pb::Descriptor &d, const std::string &msg) {
  constexpr std::string_view kNoField = ": Cannot find field.";
  if (!msg.ends_with(kNoField))
    return msg;
  std::string field = msg.substr(0, msg.size() - kNoField.size());
  if (field.find('.') != std::string::npos)
    return "no field " + field + " in " + d.full_name();
  std::string fields;
  for (int i = 0; i < d.field_count(); ++i)
    fields += (i ? ", " : "") + d.field(i)->name();
  return d.full_name() + " has no field \"" + field + "\" (" +
         (fields.empty() ? "it has none" : "fields: " + fields) + ")";
}

// The set, built.
class ProtobufDescriptors final : public GrpcDescriptors {
public:
  static ProtobufDescriptors *read(std::string_view bytes, std::string &error);
  bool encode(const std::string &type, std::string_view json, std::string &out,
              std::string &error) const override;
  bool decode(const std::string &type, std::string_view bytes, std::string &out,
              std::string &error) const override;

private:
  // A new message of `type`, or null and why.
  std::unique_ptr<pb::Message> make(const std::string &type, const pb::Descriptor *&d,
                                    std::string &error) const {
    d = pool_.FindMessageTypeByName(type);
    if (!d) {
      error = "no message type " + type + " in the descriptor set";
      return nullptr;
    }
    return std::unique_ptr<pb::Message>(factory_.GetPrototype(d)->New());
  }

  pb::SimpleDescriptorDatabase db_;
  FirstError errors_;
  pb::DescriptorPool pool_{&db_, &errors_};
  mutable pb::DynamicMessageFactory factory_{&pool_};
};

ProtobufDescriptors *ProtobufDescriptors::read(std::string_view bytes, std::string &error) {
  pb::FileDescriptorSet set;
  // An empty file parses as an empty set, and so would many files that are
  // no descriptor set at all; one without a single file is refused too.
  if (!set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) || set.file_size() == 0) {
    error = "not a FileDescriptorSet (make one with protoc --descriptor_set_out=FILE "
            "--include_imports)";
    return nullptr;
  }
  auto out = std::make_unique<ProtobufDescriptors>();
  for (const pb::FileDescriptorProto &f : set.file())
    if (!out->db_.Add(f)) {
      error = "the descriptor set has " + f.name() + " twice, or a file without a name";
      return nullptr;
    }
  for (const pb::FileDescriptorProto &f : set.file()) {
    const pb::FileDescriptor *fd = out->pool_.FindFileByName(f.name());
    if (!fd) {
      error = out->errors_.text.empty()
                  ? f.name() + " does not build (an import missing from the set? protoc "
                               "--include_imports puts them in)"
                  : out->errors_.text;
      return nullptr;
    }
    for (int s = 0; s < fd->service_count(); ++s) {
      const pb::ServiceDescriptor *sd = fd->service(s);
      for (int m = 0; m < sd->method_count(); ++m) {
        const pb::MethodDescriptor *md = sd->method(m);
        out->methods_.push_back({"/" + sd->full_name() + "/" + md->name(), sd->full_name(),
                                 md->name(), md->input_type()->full_name(),
                                 md->output_type()->full_name(),
                                 md->client_streaming() || md->server_streaming()});
      }
    }
  }
  std::sort(out->methods_.begin(), out->methods_.end(),
            [](const GrpcMethod &a, const GrpcMethod &b) { return a.path < b.path; });
  return out.release();
}

bool ProtobufDescriptors::encode(const std::string &type, std::string_view json, std::string &out,
                                 std::string &error) const {
  const pb::Descriptor *d = nullptr;
  std::unique_ptr<pb::Message> m = make(type, d, error);
  if (!m)
    return false;
  if (json == "null") // grpc_response() without a body: the empty message
    json = "{}";
  pb::util::Status st =
      pb::util::JsonStringToMessage(pb::StringPiece(json.data(), json.size()), m.get());
  if (!st.ok()) {
    error = jsonError(*d, std::string(st.message()));
    return false;
  }
  out.clear();
  if (!m->SerializeToString(&out)) {
    error = "cannot encode " + type;
    return false;
  }
  return true;
}

bool ProtobufDescriptors::decode(const std::string &type, std::string_view bytes, std::string &out,
                                 std::string &error) const {
  const pb::Descriptor *d = nullptr;
  std::unique_ptr<pb::Message> m = make(type, d, error);
  if (!m)
    return false;
  if (!m->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "not a " + type + " message (" + std::to_string(bytes.size()) + " bytes)";
    return false;
  }
  pb::util::JsonPrintOptions opts;
  opts.always_print_primitive_fields = true;
  opts.preserve_proto_field_names = true;
  out.clear();
  pb::util::Status st = pb::util::MessageToJsonString(*m, &out, opts);
  if (!st.ok()) {
    error = std::string(st.message());
    return false;
  }
  return true;
}

} // namespace

} // namespace fbc::ir

// The entry point fbc binds (kGrpcDescriptorsReader).
extern "C" fbc::ir::GrpcDescriptors *fbc_read_grpc_descriptors(std::string_view bytes,
                                                               std::string &error) {
  return fbc::ir::ProtobufDescriptors::read(bytes, error);
}
