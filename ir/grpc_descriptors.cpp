// A gRPC contract from a FileDescriptorSet: see grpc_descriptors.h.
#include "ir/grpc_descriptors.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/descriptor_database.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <set>

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

} // namespace

struct GrpcDescriptors::Impl {
  pb::SimpleDescriptorDatabase db;
  FirstError errors;
  pb::DescriptorPool pool{&db, &errors};
  pb::DynamicMessageFactory factory{&pool};

  const pb::Descriptor *message(const std::string &type, std::string &error) const {
    const pb::Descriptor *d = pool.FindMessageTypeByName(type);
    if (!d)
      error = "no message type " + type + " in the descriptor set";
    return d;
  }
};

GrpcDescriptors::GrpcDescriptors(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GrpcDescriptors::~GrpcDescriptors() = default;

std::shared_ptr<const GrpcDescriptors> GrpcDescriptors::read(std::string_view bytes,
                                                             std::string &error) {
  pb::FileDescriptorSet set;
  // An empty file parses as an empty set, and so would many files that are
  // no descriptor set at all; one without a single file is refused too.
  if (!set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) || set.file_size() == 0) {
    error = "not a FileDescriptorSet (make one with protoc --descriptor_set_out=FILE "
            "--include_imports)";
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  for (const pb::FileDescriptorProto &f : set.file())
    if (!impl->db.Add(f)) {
      error = "the descriptor set has " + f.name() + " twice, or a file without a name";
      return nullptr;
    }
  std::vector<GrpcMethod> methods;
  for (const pb::FileDescriptorProto &f : set.file()) {
    const pb::FileDescriptor *fd = impl->pool.FindFileByName(f.name());
    if (!fd) {
      error = impl->errors.text.empty()
                  ? f.name() + " does not build (an import missing from the set? protoc "
                               "--include_imports puts them in)"
                  : impl->errors.text;
      return nullptr;
    }
    for (int s = 0; s < fd->service_count(); ++s) {
      const pb::ServiceDescriptor *sd = fd->service(s);
      for (int m = 0; m < sd->method_count(); ++m) {
        const pb::MethodDescriptor *md = sd->method(m);
        methods.push_back({"/" + sd->full_name() + "/" + md->name(), sd->full_name(), md->name(),
                           md->input_type()->full_name(), md->output_type()->full_name(),
                           md->client_streaming() || md->server_streaming()});
      }
    }
  }
  std::sort(methods.begin(), methods.end(),
            [](const GrpcMethod &a, const GrpcMethod &b) { return a.path < b.path; });
  std::shared_ptr<GrpcDescriptors> out(new GrpcDescriptors(std::move(impl)));
  out->methods_ = std::move(methods);
  return out;
}

const GrpcMethod *GrpcDescriptors::findMethod(std::string_view path) const {
  auto it = std::lower_bound(methods_.begin(), methods_.end(), path,
                             [](const GrpcMethod &m, std::string_view p) { return m.path < p; });
  return it != methods_.end() && it->path == path ? &*it : nullptr;
}

std::vector<std::string> GrpcDescriptors::services() const {
  std::set<std::string> names;
  for (const GrpcMethod &m : methods_)
    names.insert(m.service);
  return {names.begin(), names.end()};
}

bool GrpcDescriptors::encode(const std::string &type, std::string_view json, std::string &out,
                             std::string &error) const {
  const pb::Descriptor *d = impl_->message(type, error);
  if (!d)
    return false;
  std::unique_ptr<pb::Message> m(impl_->factory.GetPrototype(d)->New());
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

bool GrpcDescriptors::decode(const std::string &type, std::string_view bytes, std::string &out,
                             std::string &error) const {
  const pb::Descriptor *d = impl_->message(type, error);
  if (!d)
    return false;
  std::unique_ptr<pb::Message> m(impl_->factory.GetPrototype(d)->New());
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

} // namespace fbc::ir
