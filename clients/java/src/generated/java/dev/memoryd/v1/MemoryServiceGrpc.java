package dev.memoryd.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * Long-term memory for AI agents: store short texts with their scope and find
 * them again by meaning.
 * Every error carries a google.rpc.Status with one google.rpc.ErrorInfo
 * (domain "memoryd", reason one of ErrorReason) and, for bad fields, a
 * google.rpc.BadRequest naming them. Each RPC lists its errors as
 * STATUS_CODE (REASON).
 * A request larger than the server's message limit (server setting
 * max_message_bytes, 8 MiB by default) is INVALID_ARGUMENT with reason
 * MESSAGE_TOO_LARGE. gRPC itself refuses, with RESOURCE_EXHAUSTED, one over
 * twice the limit or the limit plus 1 MiB, whichever is more.
 * Writes are journaled: a mutating RPC is acknowledged once its write is on
 * disk, and applied to the index in journal order. A memory's create_time and
 * update_time are when the write that created or changed it was journaled,
 * whenever it is applied. In WRITE_MODE_ASYNC (the default) the response
 * comes at once with a write_token; in WRITE_MODE_SYNC it comes after the
 * write is applied, with its final result. Reads wait until the writes
 * already acknowledged in their scope are applied, so a caller always reads
 * its own writes. Every mutating request takes a request_id: a retry with the
 * same id returns the first response and writes nothing new, also across
 * restarts, until the retention has passed since the write finished (server
 * setting request_id_retention_seconds, 24 hours by default). Writes fail
 * fast with RESOURCE_EXHAUSTED and a google.rpc.RetryInfo while the journal
 * backlog is full, and with UNAVAILABLE while the server shuts down. From the
 * start of a shutdown the health service reports NOT_SERVING, for the server
 * ("") and for this service, while the RPCs already sent finish.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class MemoryServiceGrpc {

  private MemoryServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "memoryd.v1.MemoryService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.CreateMemoryRequest,
      dev.memoryd.v1.CreateMemoryResponse> getCreateMemoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateMemory",
      requestType = dev.memoryd.v1.CreateMemoryRequest.class,
      responseType = dev.memoryd.v1.CreateMemoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.CreateMemoryRequest,
      dev.memoryd.v1.CreateMemoryResponse> getCreateMemoryMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.CreateMemoryRequest, dev.memoryd.v1.CreateMemoryResponse> getCreateMemoryMethod;
    if ((getCreateMemoryMethod = MemoryServiceGrpc.getCreateMemoryMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getCreateMemoryMethod = MemoryServiceGrpc.getCreateMemoryMethod) == null) {
          MemoryServiceGrpc.getCreateMemoryMethod = getCreateMemoryMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.CreateMemoryRequest, dev.memoryd.v1.CreateMemoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateMemory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.CreateMemoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.CreateMemoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("CreateMemory"))
              .build();
        }
      }
    }
    return getCreateMemoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.BatchCreateMemoriesRequest,
      dev.memoryd.v1.BatchCreateMemoriesResponse> getBatchCreateMemoriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "BatchCreateMemories",
      requestType = dev.memoryd.v1.BatchCreateMemoriesRequest.class,
      responseType = dev.memoryd.v1.BatchCreateMemoriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.BatchCreateMemoriesRequest,
      dev.memoryd.v1.BatchCreateMemoriesResponse> getBatchCreateMemoriesMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.BatchCreateMemoriesRequest, dev.memoryd.v1.BatchCreateMemoriesResponse> getBatchCreateMemoriesMethod;
    if ((getBatchCreateMemoriesMethod = MemoryServiceGrpc.getBatchCreateMemoriesMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getBatchCreateMemoriesMethod = MemoryServiceGrpc.getBatchCreateMemoriesMethod) == null) {
          MemoryServiceGrpc.getBatchCreateMemoriesMethod = getBatchCreateMemoriesMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.BatchCreateMemoriesRequest, dev.memoryd.v1.BatchCreateMemoriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "BatchCreateMemories"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.BatchCreateMemoriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.BatchCreateMemoriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("BatchCreateMemories"))
              .build();
        }
      }
    }
    return getBatchCreateMemoriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.GetMemoryRequest,
      dev.memoryd.v1.GetMemoryResponse> getGetMemoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetMemory",
      requestType = dev.memoryd.v1.GetMemoryRequest.class,
      responseType = dev.memoryd.v1.GetMemoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.GetMemoryRequest,
      dev.memoryd.v1.GetMemoryResponse> getGetMemoryMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.GetMemoryRequest, dev.memoryd.v1.GetMemoryResponse> getGetMemoryMethod;
    if ((getGetMemoryMethod = MemoryServiceGrpc.getGetMemoryMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getGetMemoryMethod = MemoryServiceGrpc.getGetMemoryMethod) == null) {
          MemoryServiceGrpc.getGetMemoryMethod = getGetMemoryMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.GetMemoryRequest, dev.memoryd.v1.GetMemoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetMemory"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetMemoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetMemoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("GetMemory"))
              .build();
        }
      }
    }
    return getGetMemoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.ListMemoriesRequest,
      dev.memoryd.v1.ListMemoriesResponse> getListMemoriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListMemories",
      requestType = dev.memoryd.v1.ListMemoriesRequest.class,
      responseType = dev.memoryd.v1.ListMemoriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.ListMemoriesRequest,
      dev.memoryd.v1.ListMemoriesResponse> getListMemoriesMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.ListMemoriesRequest, dev.memoryd.v1.ListMemoriesResponse> getListMemoriesMethod;
    if ((getListMemoriesMethod = MemoryServiceGrpc.getListMemoriesMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getListMemoriesMethod = MemoryServiceGrpc.getListMemoriesMethod) == null) {
          MemoryServiceGrpc.getListMemoriesMethod = getListMemoriesMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.ListMemoriesRequest, dev.memoryd.v1.ListMemoriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListMemories"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ListMemoriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ListMemoriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("ListMemories"))
              .build();
        }
      }
    }
    return getListMemoriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.UpdateMemoryRequest,
      dev.memoryd.v1.UpdateMemoryResponse> getUpdateMemoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "UpdateMemory",
      requestType = dev.memoryd.v1.UpdateMemoryRequest.class,
      responseType = dev.memoryd.v1.UpdateMemoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.UpdateMemoryRequest,
      dev.memoryd.v1.UpdateMemoryResponse> getUpdateMemoryMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.UpdateMemoryRequest, dev.memoryd.v1.UpdateMemoryResponse> getUpdateMemoryMethod;
    if ((getUpdateMemoryMethod = MemoryServiceGrpc.getUpdateMemoryMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getUpdateMemoryMethod = MemoryServiceGrpc.getUpdateMemoryMethod) == null) {
          MemoryServiceGrpc.getUpdateMemoryMethod = getUpdateMemoryMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.UpdateMemoryRequest, dev.memoryd.v1.UpdateMemoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "UpdateMemory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.UpdateMemoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.UpdateMemoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("UpdateMemory"))
              .build();
        }
      }
    }
    return getUpdateMemoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.DeleteMemoryRequest,
      dev.memoryd.v1.DeleteMemoryResponse> getDeleteMemoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteMemory",
      requestType = dev.memoryd.v1.DeleteMemoryRequest.class,
      responseType = dev.memoryd.v1.DeleteMemoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.DeleteMemoryRequest,
      dev.memoryd.v1.DeleteMemoryResponse> getDeleteMemoryMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.DeleteMemoryRequest, dev.memoryd.v1.DeleteMemoryResponse> getDeleteMemoryMethod;
    if ((getDeleteMemoryMethod = MemoryServiceGrpc.getDeleteMemoryMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getDeleteMemoryMethod = MemoryServiceGrpc.getDeleteMemoryMethod) == null) {
          MemoryServiceGrpc.getDeleteMemoryMethod = getDeleteMemoryMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.DeleteMemoryRequest, dev.memoryd.v1.DeleteMemoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteMemory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.DeleteMemoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.DeleteMemoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("DeleteMemory"))
              .build();
        }
      }
    }
    return getDeleteMemoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.SearchMemoriesRequest,
      dev.memoryd.v1.SearchMemoriesResponse> getSearchMemoriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SearchMemories",
      requestType = dev.memoryd.v1.SearchMemoriesRequest.class,
      responseType = dev.memoryd.v1.SearchMemoriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.SearchMemoriesRequest,
      dev.memoryd.v1.SearchMemoriesResponse> getSearchMemoriesMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.SearchMemoriesRequest, dev.memoryd.v1.SearchMemoriesResponse> getSearchMemoriesMethod;
    if ((getSearchMemoriesMethod = MemoryServiceGrpc.getSearchMemoriesMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getSearchMemoriesMethod = MemoryServiceGrpc.getSearchMemoriesMethod) == null) {
          MemoryServiceGrpc.getSearchMemoriesMethod = getSearchMemoriesMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.SearchMemoriesRequest, dev.memoryd.v1.SearchMemoriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SearchMemories"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.SearchMemoriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.SearchMemoriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("SearchMemories"))
              .build();
        }
      }
    }
    return getSearchMemoriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.PreloadRequest,
      dev.memoryd.v1.PreloadResponse> getPreloadMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Preload",
      requestType = dev.memoryd.v1.PreloadRequest.class,
      responseType = dev.memoryd.v1.PreloadResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.PreloadRequest,
      dev.memoryd.v1.PreloadResponse> getPreloadMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.PreloadRequest, dev.memoryd.v1.PreloadResponse> getPreloadMethod;
    if ((getPreloadMethod = MemoryServiceGrpc.getPreloadMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getPreloadMethod = MemoryServiceGrpc.getPreloadMethod) == null) {
          MemoryServiceGrpc.getPreloadMethod = getPreloadMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.PreloadRequest, dev.memoryd.v1.PreloadResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Preload"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.PreloadRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.PreloadResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("Preload"))
              .build();
        }
      }
    }
    return getPreloadMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.GetWriteStatusRequest,
      dev.memoryd.v1.GetWriteStatusResponse> getGetWriteStatusMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetWriteStatus",
      requestType = dev.memoryd.v1.GetWriteStatusRequest.class,
      responseType = dev.memoryd.v1.GetWriteStatusResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.GetWriteStatusRequest,
      dev.memoryd.v1.GetWriteStatusResponse> getGetWriteStatusMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.GetWriteStatusRequest, dev.memoryd.v1.GetWriteStatusResponse> getGetWriteStatusMethod;
    if ((getGetWriteStatusMethod = MemoryServiceGrpc.getGetWriteStatusMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getGetWriteStatusMethod = MemoryServiceGrpc.getGetWriteStatusMethod) == null) {
          MemoryServiceGrpc.getGetWriteStatusMethod = getGetWriteStatusMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.GetWriteStatusRequest, dev.memoryd.v1.GetWriteStatusResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetWriteStatus"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetWriteStatusRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetWriteStatusResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("GetWriteStatus"))
              .build();
        }
      }
    }
    return getGetWriteStatusMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.ForgetMemoriesRequest,
      dev.memoryd.v1.ForgetMemoriesResponse> getForgetMemoriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ForgetMemories",
      requestType = dev.memoryd.v1.ForgetMemoriesRequest.class,
      responseType = dev.memoryd.v1.ForgetMemoriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.ForgetMemoriesRequest,
      dev.memoryd.v1.ForgetMemoriesResponse> getForgetMemoriesMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.ForgetMemoriesRequest, dev.memoryd.v1.ForgetMemoriesResponse> getForgetMemoriesMethod;
    if ((getForgetMemoriesMethod = MemoryServiceGrpc.getForgetMemoriesMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getForgetMemoriesMethod = MemoryServiceGrpc.getForgetMemoriesMethod) == null) {
          MemoryServiceGrpc.getForgetMemoriesMethod = getForgetMemoriesMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.ForgetMemoriesRequest, dev.memoryd.v1.ForgetMemoriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ForgetMemories"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ForgetMemoriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ForgetMemoriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("ForgetMemories"))
              .build();
        }
      }
    }
    return getForgetMemoriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.ExportMemoriesRequest,
      dev.memoryd.v1.ExportMemoriesResponse> getExportMemoriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ExportMemories",
      requestType = dev.memoryd.v1.ExportMemoriesRequest.class,
      responseType = dev.memoryd.v1.ExportMemoriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.ExportMemoriesRequest,
      dev.memoryd.v1.ExportMemoriesResponse> getExportMemoriesMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.ExportMemoriesRequest, dev.memoryd.v1.ExportMemoriesResponse> getExportMemoriesMethod;
    if ((getExportMemoriesMethod = MemoryServiceGrpc.getExportMemoriesMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getExportMemoriesMethod = MemoryServiceGrpc.getExportMemoriesMethod) == null) {
          MemoryServiceGrpc.getExportMemoriesMethod = getExportMemoriesMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.ExportMemoriesRequest, dev.memoryd.v1.ExportMemoriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ExportMemories"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ExportMemoriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ExportMemoriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("ExportMemories"))
              .build();
        }
      }
    }
    return getExportMemoriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.ImportMemoriesRequest,
      dev.memoryd.v1.ImportMemoriesResponse> getImportMemoriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ImportMemories",
      requestType = dev.memoryd.v1.ImportMemoriesRequest.class,
      responseType = dev.memoryd.v1.ImportMemoriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.ImportMemoriesRequest,
      dev.memoryd.v1.ImportMemoriesResponse> getImportMemoriesMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.ImportMemoriesRequest, dev.memoryd.v1.ImportMemoriesResponse> getImportMemoriesMethod;
    if ((getImportMemoriesMethod = MemoryServiceGrpc.getImportMemoriesMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getImportMemoriesMethod = MemoryServiceGrpc.getImportMemoriesMethod) == null) {
          MemoryServiceGrpc.getImportMemoriesMethod = getImportMemoriesMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.ImportMemoriesRequest, dev.memoryd.v1.ImportMemoriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ImportMemories"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ImportMemoriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.ImportMemoriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("ImportMemories"))
              .build();
        }
      }
    }
    return getImportMemoriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.WatchMemoriesRequest,
      dev.memoryd.v1.WatchMemoriesResponse> getWatchMemoriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WatchMemories",
      requestType = dev.memoryd.v1.WatchMemoriesRequest.class,
      responseType = dev.memoryd.v1.WatchMemoriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.WatchMemoriesRequest,
      dev.memoryd.v1.WatchMemoriesResponse> getWatchMemoriesMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.WatchMemoriesRequest, dev.memoryd.v1.WatchMemoriesResponse> getWatchMemoriesMethod;
    if ((getWatchMemoriesMethod = MemoryServiceGrpc.getWatchMemoriesMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getWatchMemoriesMethod = MemoryServiceGrpc.getWatchMemoriesMethod) == null) {
          MemoryServiceGrpc.getWatchMemoriesMethod = getWatchMemoriesMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.WatchMemoriesRequest, dev.memoryd.v1.WatchMemoriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WatchMemories"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.WatchMemoriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.WatchMemoriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("WatchMemories"))
              .build();
        }
      }
    }
    return getWatchMemoriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.GetStatsRequest,
      dev.memoryd.v1.GetStatsResponse> getGetStatsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetStats",
      requestType = dev.memoryd.v1.GetStatsRequest.class,
      responseType = dev.memoryd.v1.GetStatsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.GetStatsRequest,
      dev.memoryd.v1.GetStatsResponse> getGetStatsMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.GetStatsRequest, dev.memoryd.v1.GetStatsResponse> getGetStatsMethod;
    if ((getGetStatsMethod = MemoryServiceGrpc.getGetStatsMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getGetStatsMethod = MemoryServiceGrpc.getGetStatsMethod) == null) {
          MemoryServiceGrpc.getGetStatsMethod = getGetStatsMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.GetStatsRequest, dev.memoryd.v1.GetStatsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetStats"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetStatsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetStatsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("GetStats"))
              .build();
        }
      }
    }
    return getGetStatsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.StartReembedRequest,
      dev.memoryd.v1.StartReembedResponse> getStartReembedMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StartReembed",
      requestType = dev.memoryd.v1.StartReembedRequest.class,
      responseType = dev.memoryd.v1.StartReembedResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.StartReembedRequest,
      dev.memoryd.v1.StartReembedResponse> getStartReembedMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.StartReembedRequest, dev.memoryd.v1.StartReembedResponse> getStartReembedMethod;
    if ((getStartReembedMethod = MemoryServiceGrpc.getStartReembedMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getStartReembedMethod = MemoryServiceGrpc.getStartReembedMethod) == null) {
          MemoryServiceGrpc.getStartReembedMethod = getStartReembedMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.StartReembedRequest, dev.memoryd.v1.StartReembedResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StartReembed"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.StartReembedRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.StartReembedResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("StartReembed"))
              .build();
        }
      }
    }
    return getStartReembedMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.memoryd.v1.GetReembedStatusRequest,
      dev.memoryd.v1.GetReembedStatusResponse> getGetReembedStatusMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetReembedStatus",
      requestType = dev.memoryd.v1.GetReembedStatusRequest.class,
      responseType = dev.memoryd.v1.GetReembedStatusResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.memoryd.v1.GetReembedStatusRequest,
      dev.memoryd.v1.GetReembedStatusResponse> getGetReembedStatusMethod() {
    io.grpc.MethodDescriptor<dev.memoryd.v1.GetReembedStatusRequest, dev.memoryd.v1.GetReembedStatusResponse> getGetReembedStatusMethod;
    if ((getGetReembedStatusMethod = MemoryServiceGrpc.getGetReembedStatusMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getGetReembedStatusMethod = MemoryServiceGrpc.getGetReembedStatusMethod) == null) {
          MemoryServiceGrpc.getGetReembedStatusMethod = getGetReembedStatusMethod =
              io.grpc.MethodDescriptor.<dev.memoryd.v1.GetReembedStatusRequest, dev.memoryd.v1.GetReembedStatusResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetReembedStatus"))
              .setSafe(true)
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetReembedStatusRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.memoryd.v1.GetReembedStatusResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("GetReembedStatus"))
              .build();
        }
      }
    }
    return getGetReembedStatusMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static MemoryServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<MemoryServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<MemoryServiceStub>() {
        @java.lang.Override
        public MemoryServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new MemoryServiceStub(channel, callOptions);
        }
      };
    return MemoryServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static MemoryServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<MemoryServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<MemoryServiceBlockingV2Stub>() {
        @java.lang.Override
        public MemoryServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new MemoryServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return MemoryServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static MemoryServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<MemoryServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<MemoryServiceBlockingStub>() {
        @java.lang.Override
        public MemoryServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new MemoryServiceBlockingStub(channel, callOptions);
        }
      };
    return MemoryServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static MemoryServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<MemoryServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<MemoryServiceFutureStub>() {
        @java.lang.Override
        public MemoryServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new MemoryServiceFutureStub(channel, callOptions);
        }
      };
    return MemoryServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * Long-term memory for AI agents: store short texts with their scope and find
   * them again by meaning.
   * Every error carries a google.rpc.Status with one google.rpc.ErrorInfo
   * (domain "memoryd", reason one of ErrorReason) and, for bad fields, a
   * google.rpc.BadRequest naming them. Each RPC lists its errors as
   * STATUS_CODE (REASON).
   * A request larger than the server's message limit (server setting
   * max_message_bytes, 8 MiB by default) is INVALID_ARGUMENT with reason
   * MESSAGE_TOO_LARGE. gRPC itself refuses, with RESOURCE_EXHAUSTED, one over
   * twice the limit or the limit plus 1 MiB, whichever is more.
   * Writes are journaled: a mutating RPC is acknowledged once its write is on
   * disk, and applied to the index in journal order. A memory's create_time and
   * update_time are when the write that created or changed it was journaled,
   * whenever it is applied. In WRITE_MODE_ASYNC (the default) the response
   * comes at once with a write_token; in WRITE_MODE_SYNC it comes after the
   * write is applied, with its final result. Reads wait until the writes
   * already acknowledged in their scope are applied, so a caller always reads
   * its own writes. Every mutating request takes a request_id: a retry with the
   * same id returns the first response and writes nothing new, also across
   * restarts, until the retention has passed since the write finished (server
   * setting request_id_retention_seconds, 24 hours by default). Writes fail
   * fast with RESOURCE_EXHAUSTED and a google.rpc.RetryInfo while the journal
   * backlog is full, and with UNAVAILABLE while the server shuts down. From the
   * start of a shutdown the health service reports NOT_SERVING, for the server
   * ("") and for this service, while the RPCs already sent finish.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * Stores a memory. With a memory_key, an existing memory with the same key
     * in the same scope is updated instead (UPDATED_EXISTING). Without one, a
     * memory whose content is at least dedup_threshold similar to one of the
     * same scope and type is not stored (SKIPPED_DUPLICATE). Returns
     * INVALID_ARGUMENT for empty or oversized content, a bad id or an empty
     * scope.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not write, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN; in WRITE_MODE_SYNC also
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED when a
     * WRITE_MODE_SYNC write is not applied within the deadline, INTERNAL.
     * </pre>
     */
    default void createMemory(dev.memoryd.v1.CreateMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.CreateMemoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateMemoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * Stores up to 100 memories (server setting max_batch_size), each with the
     * semantics of CreateMemory, in order. If any request is invalid nothing
     * is stored and INVALID_ARGUMENT names it.
     * Errors: as CreateMemory; a bad field is named by its index
     * (requests[2].memory.content).
     * </pre>
     */
    default void batchCreateMemories(dev.memoryd.v1.BatchCreateMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.BatchCreateMemoriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getBatchCreateMemoriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Returns one memory. Returns NOT_FOUND if it does not exist in the given
     * scope, including when it exists in another one.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND), INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) when a write it waits for is not applied before
     * the deadline, INTERNAL.
     * </pre>
     */
    default void getMemory(dev.memoryd.v1.GetMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetMemoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetMemoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * Lists the memories of a scope, newest first (by create_time, then id),
     * without any vector search. Returns INVALID_ARGUMENT for a negative
     * page_size, a malformed filter or a page_token from another query.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    default void listMemories(dev.memoryd.v1.ListMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ListMemoriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListMemoriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Changes the fields named in update_mask. Changed content is embedded
     * again. Returns NOT_FOUND for a missing memory, ABORTED if
     * expected_version is stale and INVALID_ARGUMENT for an unknown mask path.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND) and ABORTED (VERSION_MISMATCH) in
     * WRITE_MODE_SYNC (in WRITE_MODE_ASYNC they are the write's error in
     * GetWriteStatus), and the errors of CreateMemory.
     * </pre>
     */
    default void updateMemory(dev.memoryd.v1.UpdateMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.UpdateMemoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getUpdateMemoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * Deletes one memory. Returns NOT_FOUND if it does not exist in the given
     * scope and ABORTED if expected_version is stale.
     * Errors: as UpdateMemory.
     * </pre>
     */
    default void deleteMemory(dev.memoryd.v1.DeleteMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.DeleteMemoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteMemoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * Finds the memories of a scope closest in meaning to a query, best first.
     * Returns INVALID_ARGUMENT for an empty query, a limit outside 1-100, a
     * diversity outside 0-1, HYBRID on an index without a lexical vector, or a
     * malformed filter.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE (EMBEDDING_UNAVAILABLE),
     * DEADLINE_EXCEEDED (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    default void searchMemories(dev.memoryd.v1.SearchMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.SearchMemoriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSearchMemoriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Retrieves the memories relevant to a conversation and renders them as a
     * context block for the next model call, in the format of 10xgraph's
     * preload.
     * It streams so that an agent can start assembling its prompt while
     * retrieval is still running, and so that a deadline yields what is ready
     * instead of nothing: the user scope and the agent scope are searched
     * concurrently and each sends one `hits` event as soon as it is done (or
     * failed, with its error inside the event). Then one `context` event with
     * the rendered block, then one `done` event. A request whose
     * if_none_match still holds gets a single `not_modified` event instead.
     * Every stream ends with exactly one terminal event, `done` or
     * `not_modified`; when the deadline comes close, unfinished scopes report
     * DEADLINE_EXCEEDED in their event and `done` is marked partial.
     * Returns INVALID_ARGUMENT, before any event, when there is neither a query
     * nor a user turn, user_scope has no user_id, agent_scope has a user_id or
     * neither agent_id nor app_id, or a limit, threshold, budget or filter is
     * out of range.
     * Errors, as the status of the stream before any event: INVALID_ARGUMENT
     * (INVALID_ARGUMENT, MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL. Inside a ScopeHits event:
     * DEADLINE_EXCEEDED (PRELOAD_SCOPE_TIMED_OUT, WRITE_NOT_YET_APPLIED),
     * UNAVAILABLE (EMBEDDING_UNAVAILABLE), INTERNAL.
     * </pre>
     */
    default void preload(dev.memoryd.v1.PreloadRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.PreloadResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getPreloadMethod(), responseObserver);
    }

    /**
     * <pre>
     * Returns the state of a write by its write_token and, once applied, the
     * result its RPC would have returned in WRITE_MODE_SYNC. Returns NOT_FOUND
     * for a token this server never issued, or whose write finished (was
     * applied or failed) longer ago than the request id retention (server
     * setting request_id_retention_seconds, 24 hours by default). A pending
     * write is never forgotten.
     * Errors: NOT_FOUND (UNKNOWN_WRITE_TOKEN), also for a write in a scope the
     * caller may not read; INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE) for an empty token, UNAUTHENTICATED,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    default void getWriteStatus(dev.memoryd.v1.GetWriteStatusRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetWriteStatusResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetWriteStatusMethod(), responseObserver);
    }

    /**
     * <pre>
     * Deletes the memories of a scope that match the optional types,
     * categories and filter. With dry_run set, nothing is deleted and the
     * response still reports the count. Returns INVALID_ARGUMENT if user_id,
     * agent_id and app_id are all empty or the filter is malformed.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not forget, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) for a dry run that waits for a write, or a
     * WRITE_MODE_SYNC forget not applied within the deadline, INTERNAL.
     * </pre>
     */
    default void forgetMemories(dev.memoryd.v1.ForgetMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ForgetMemoriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getForgetMemoriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Streams the memories of a scope (or, for an admin principal with no
     * scope set, of every owner) with their vectors, for backup and
     * migration. The export is a snapshot: the scope's acknowledged writes are
     * applied first, then the selection is read while no write is applied, so
     * a memory written during the export is either wholly in it, as of one
     * version, or wholly absent. Writes are still acknowledged meanwhile and
     * applied once the snapshot is taken. The first response carries the
     * header; every response carries up to page_size memories. Expired
     * memories are left out.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not read or, without a scope, a caller that is not an admin,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    default void exportMemories(dev.memoryd.v1.ExportMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ExportMemoriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getExportMemoriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Imports exported memories, keeping their ids, keys, scopes, times and
     * versions. Idempotent per record: a memory already stored at the same or
     * a newer version is left as it is, so running an interrupted import again
     * writes nothing twice. A record whose embedder_id is the server's keeps
     * its vector; any other is embedded again. Each request message is
     * journaled as one write before it is applied, so an import is as durable
     * as any write; the response comes once every record is applied. Records
     * already expired are skipped. A bad record fails the call with
     * INVALID_ARGUMENT naming it (messages before it stay imported; run the
     * corrected import again).
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a record in
     * a scope the caller may not write, RESOURCE_EXHAUSTED
     * (WRITE_BACKLOG_FULL, RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN,
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED, INTERNAL.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<dev.memoryd.v1.ImportMemoriesRequest> importMemories(
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ImportMemoriesResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getImportMemoriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Streams the changes to the memories of a scope (or, for an admin
     * principal with no scope set, of every owner) as they are applied:
     * created, updated, deleted and expired, each with a sequence number that
     * increases across the server's whole change history. The first response
     * is `started`, naming the sequence the stream continues after; from then
     * on nothing is missed and nothing is sent twice. Resume after a
     * disconnect with start_after_sequence set to the last sequence received.
     * A consumer that reads too slowly for the server's buffer (server setting
     * watch_buffer_events) gets one `fell_behind` response naming the
     * sequence to resume after, and the stream ends with OK: no event is ever
     * skipped silently. The history is kept for the request id retention
     * (request_id_retention_seconds).
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED), OUT_OF_RANGE
     * (CHANGE_HISTORY_EXPIRED) for a start_after_sequence older than the kept
     * history or past its end, RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE
     * (SHUTTING_DOWN), INTERNAL.
     * </pre>
     */
    default void watchMemories(dev.memoryd.v1.WatchMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.WatchMemoriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWatchMemoriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Reports what the server holds: memories per kind of owner, the journal
     * backlog, the embedder, the engine's sizes and any re-embedding. Admin
     * principals only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    default void getStats(dev.memoryd.v1.GetStatsRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetStatsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetStatsMethod(), responseObserver);
    }

    /**
     * <pre>
     * Starts re-embedding every memory with another embedder, in the
     * background, while the server keeps serving with the current one. Once
     * every memory has its new vector, reads and writes switch over to the new
     * embedder at once, and the old vectors are dropped. Progress survives a
     * restart: the server resumes the job when it starts again. Starting the
     * same target again returns the running job. Admin principals only.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT) for an unknown embedder or
     * the current one, UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED), FAILED_PRECONDITION (REEMBED_IN_PROGRESS) while a
     * job to another embedder runs, UNAVAILABLE (EMBEDDING_UNAVAILABLE) when
     * the new embedder cannot be loaded, RESOURCE_EXHAUSTED (RATE_LIMITED),
     * INTERNAL.
     * </pre>
     */
    default void startReembed(dev.memoryd.v1.StartReembedRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.StartReembedResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStartReembedMethod(), responseObserver);
    }

    /**
     * <pre>
     * Returns the state of the current or last re-embedding. Admin principals
     * only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    default void getReembedStatus(dev.memoryd.v1.GetReembedStatusRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetReembedStatusResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetReembedStatusMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service MemoryService.
   * <pre>
   * Long-term memory for AI agents: store short texts with their scope and find
   * them again by meaning.
   * Every error carries a google.rpc.Status with one google.rpc.ErrorInfo
   * (domain "memoryd", reason one of ErrorReason) and, for bad fields, a
   * google.rpc.BadRequest naming them. Each RPC lists its errors as
   * STATUS_CODE (REASON).
   * A request larger than the server's message limit (server setting
   * max_message_bytes, 8 MiB by default) is INVALID_ARGUMENT with reason
   * MESSAGE_TOO_LARGE. gRPC itself refuses, with RESOURCE_EXHAUSTED, one over
   * twice the limit or the limit plus 1 MiB, whichever is more.
   * Writes are journaled: a mutating RPC is acknowledged once its write is on
   * disk, and applied to the index in journal order. A memory's create_time and
   * update_time are when the write that created or changed it was journaled,
   * whenever it is applied. In WRITE_MODE_ASYNC (the default) the response
   * comes at once with a write_token; in WRITE_MODE_SYNC it comes after the
   * write is applied, with its final result. Reads wait until the writes
   * already acknowledged in their scope are applied, so a caller always reads
   * its own writes. Every mutating request takes a request_id: a retry with the
   * same id returns the first response and writes nothing new, also across
   * restarts, until the retention has passed since the write finished (server
   * setting request_id_retention_seconds, 24 hours by default). Writes fail
   * fast with RESOURCE_EXHAUSTED and a google.rpc.RetryInfo while the journal
   * backlog is full, and with UNAVAILABLE while the server shuts down. From the
   * start of a shutdown the health service reports NOT_SERVING, for the server
   * ("") and for this service, while the RPCs already sent finish.
   * </pre>
   */
  public static abstract class MemoryServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return MemoryServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service MemoryService.
   * <pre>
   * Long-term memory for AI agents: store short texts with their scope and find
   * them again by meaning.
   * Every error carries a google.rpc.Status with one google.rpc.ErrorInfo
   * (domain "memoryd", reason one of ErrorReason) and, for bad fields, a
   * google.rpc.BadRequest naming them. Each RPC lists its errors as
   * STATUS_CODE (REASON).
   * A request larger than the server's message limit (server setting
   * max_message_bytes, 8 MiB by default) is INVALID_ARGUMENT with reason
   * MESSAGE_TOO_LARGE. gRPC itself refuses, with RESOURCE_EXHAUSTED, one over
   * twice the limit or the limit plus 1 MiB, whichever is more.
   * Writes are journaled: a mutating RPC is acknowledged once its write is on
   * disk, and applied to the index in journal order. A memory's create_time and
   * update_time are when the write that created or changed it was journaled,
   * whenever it is applied. In WRITE_MODE_ASYNC (the default) the response
   * comes at once with a write_token; in WRITE_MODE_SYNC it comes after the
   * write is applied, with its final result. Reads wait until the writes
   * already acknowledged in their scope are applied, so a caller always reads
   * its own writes. Every mutating request takes a request_id: a retry with the
   * same id returns the first response and writes nothing new, also across
   * restarts, until the retention has passed since the write finished (server
   * setting request_id_retention_seconds, 24 hours by default). Writes fail
   * fast with RESOURCE_EXHAUSTED and a google.rpc.RetryInfo while the journal
   * backlog is full, and with UNAVAILABLE while the server shuts down. From the
   * start of a shutdown the health service reports NOT_SERVING, for the server
   * ("") and for this service, while the RPCs already sent finish.
   * </pre>
   */
  public static final class MemoryServiceStub
      extends io.grpc.stub.AbstractAsyncStub<MemoryServiceStub> {
    private MemoryServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected MemoryServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new MemoryServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Stores a memory. With a memory_key, an existing memory with the same key
     * in the same scope is updated instead (UPDATED_EXISTING). Without one, a
     * memory whose content is at least dedup_threshold similar to one of the
     * same scope and type is not stored (SKIPPED_DUPLICATE). Returns
     * INVALID_ARGUMENT for empty or oversized content, a bad id or an empty
     * scope.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not write, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN; in WRITE_MODE_SYNC also
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED when a
     * WRITE_MODE_SYNC write is not applied within the deadline, INTERNAL.
     * </pre>
     */
    public void createMemory(dev.memoryd.v1.CreateMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.CreateMemoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateMemoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Stores up to 100 memories (server setting max_batch_size), each with the
     * semantics of CreateMemory, in order. If any request is invalid nothing
     * is stored and INVALID_ARGUMENT names it.
     * Errors: as CreateMemory; a bad field is named by its index
     * (requests[2].memory.content).
     * </pre>
     */
    public void batchCreateMemories(dev.memoryd.v1.BatchCreateMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.BatchCreateMemoriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getBatchCreateMemoriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Returns one memory. Returns NOT_FOUND if it does not exist in the given
     * scope, including when it exists in another one.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND), INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) when a write it waits for is not applied before
     * the deadline, INTERNAL.
     * </pre>
     */
    public void getMemory(dev.memoryd.v1.GetMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetMemoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetMemoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Lists the memories of a scope, newest first (by create_time, then id),
     * without any vector search. Returns INVALID_ARGUMENT for a negative
     * page_size, a malformed filter or a page_token from another query.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public void listMemories(dev.memoryd.v1.ListMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ListMemoriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListMemoriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Changes the fields named in update_mask. Changed content is embedded
     * again. Returns NOT_FOUND for a missing memory, ABORTED if
     * expected_version is stale and INVALID_ARGUMENT for an unknown mask path.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND) and ABORTED (VERSION_MISMATCH) in
     * WRITE_MODE_SYNC (in WRITE_MODE_ASYNC they are the write's error in
     * GetWriteStatus), and the errors of CreateMemory.
     * </pre>
     */
    public void updateMemory(dev.memoryd.v1.UpdateMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.UpdateMemoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getUpdateMemoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Deletes one memory. Returns NOT_FOUND if it does not exist in the given
     * scope and ABORTED if expected_version is stale.
     * Errors: as UpdateMemory.
     * </pre>
     */
    public void deleteMemory(dev.memoryd.v1.DeleteMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.DeleteMemoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteMemoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Finds the memories of a scope closest in meaning to a query, best first.
     * Returns INVALID_ARGUMENT for an empty query, a limit outside 1-100, a
     * diversity outside 0-1, HYBRID on an index without a lexical vector, or a
     * malformed filter.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE (EMBEDDING_UNAVAILABLE),
     * DEADLINE_EXCEEDED (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public void searchMemories(dev.memoryd.v1.SearchMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.SearchMemoriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSearchMemoriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Retrieves the memories relevant to a conversation and renders them as a
     * context block for the next model call, in the format of 10xgraph's
     * preload.
     * It streams so that an agent can start assembling its prompt while
     * retrieval is still running, and so that a deadline yields what is ready
     * instead of nothing: the user scope and the agent scope are searched
     * concurrently and each sends one `hits` event as soon as it is done (or
     * failed, with its error inside the event). Then one `context` event with
     * the rendered block, then one `done` event. A request whose
     * if_none_match still holds gets a single `not_modified` event instead.
     * Every stream ends with exactly one terminal event, `done` or
     * `not_modified`; when the deadline comes close, unfinished scopes report
     * DEADLINE_EXCEEDED in their event and `done` is marked partial.
     * Returns INVALID_ARGUMENT, before any event, when there is neither a query
     * nor a user turn, user_scope has no user_id, agent_scope has a user_id or
     * neither agent_id nor app_id, or a limit, threshold, budget or filter is
     * out of range.
     * Errors, as the status of the stream before any event: INVALID_ARGUMENT
     * (INVALID_ARGUMENT, MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL. Inside a ScopeHits event:
     * DEADLINE_EXCEEDED (PRELOAD_SCOPE_TIMED_OUT, WRITE_NOT_YET_APPLIED),
     * UNAVAILABLE (EMBEDDING_UNAVAILABLE), INTERNAL.
     * </pre>
     */
    public void preload(dev.memoryd.v1.PreloadRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.PreloadResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getPreloadMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Returns the state of a write by its write_token and, once applied, the
     * result its RPC would have returned in WRITE_MODE_SYNC. Returns NOT_FOUND
     * for a token this server never issued, or whose write finished (was
     * applied or failed) longer ago than the request id retention (server
     * setting request_id_retention_seconds, 24 hours by default). A pending
     * write is never forgotten.
     * Errors: NOT_FOUND (UNKNOWN_WRITE_TOKEN), also for a write in a scope the
     * caller may not read; INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE) for an empty token, UNAUTHENTICATED,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public void getWriteStatus(dev.memoryd.v1.GetWriteStatusRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetWriteStatusResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetWriteStatusMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Deletes the memories of a scope that match the optional types,
     * categories and filter. With dry_run set, nothing is deleted and the
     * response still reports the count. Returns INVALID_ARGUMENT if user_id,
     * agent_id and app_id are all empty or the filter is malformed.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not forget, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) for a dry run that waits for a write, or a
     * WRITE_MODE_SYNC forget not applied within the deadline, INTERNAL.
     * </pre>
     */
    public void forgetMemories(dev.memoryd.v1.ForgetMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ForgetMemoriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getForgetMemoriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Streams the memories of a scope (or, for an admin principal with no
     * scope set, of every owner) with their vectors, for backup and
     * migration. The export is a snapshot: the scope's acknowledged writes are
     * applied first, then the selection is read while no write is applied, so
     * a memory written during the export is either wholly in it, as of one
     * version, or wholly absent. Writes are still acknowledged meanwhile and
     * applied once the snapshot is taken. The first response carries the
     * header; every response carries up to page_size memories. Expired
     * memories are left out.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not read or, without a scope, a caller that is not an admin,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public void exportMemories(dev.memoryd.v1.ExportMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ExportMemoriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getExportMemoriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Imports exported memories, keeping their ids, keys, scopes, times and
     * versions. Idempotent per record: a memory already stored at the same or
     * a newer version is left as it is, so running an interrupted import again
     * writes nothing twice. A record whose embedder_id is the server's keeps
     * its vector; any other is embedded again. Each request message is
     * journaled as one write before it is applied, so an import is as durable
     * as any write; the response comes once every record is applied. Records
     * already expired are skipped. A bad record fails the call with
     * INVALID_ARGUMENT naming it (messages before it stay imported; run the
     * corrected import again).
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a record in
     * a scope the caller may not write, RESOURCE_EXHAUSTED
     * (WRITE_BACKLOG_FULL, RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN,
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED, INTERNAL.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<dev.memoryd.v1.ImportMemoriesRequest> importMemories(
        io.grpc.stub.StreamObserver<dev.memoryd.v1.ImportMemoriesResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncClientStreamingCall(
          getChannel().newCall(getImportMemoriesMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * Streams the changes to the memories of a scope (or, for an admin
     * principal with no scope set, of every owner) as they are applied:
     * created, updated, deleted and expired, each with a sequence number that
     * increases across the server's whole change history. The first response
     * is `started`, naming the sequence the stream continues after; from then
     * on nothing is missed and nothing is sent twice. Resume after a
     * disconnect with start_after_sequence set to the last sequence received.
     * A consumer that reads too slowly for the server's buffer (server setting
     * watch_buffer_events) gets one `fell_behind` response naming the
     * sequence to resume after, and the stream ends with OK: no event is ever
     * skipped silently. The history is kept for the request id retention
     * (request_id_retention_seconds).
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED), OUT_OF_RANGE
     * (CHANGE_HISTORY_EXPIRED) for a start_after_sequence older than the kept
     * history or past its end, RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE
     * (SHUTTING_DOWN), INTERNAL.
     * </pre>
     */
    public void watchMemories(dev.memoryd.v1.WatchMemoriesRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.WatchMemoriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getWatchMemoriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Reports what the server holds: memories per kind of owner, the journal
     * backlog, the embedder, the engine's sizes and any re-embedding. Admin
     * principals only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public void getStats(dev.memoryd.v1.GetStatsRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetStatsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetStatsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Starts re-embedding every memory with another embedder, in the
     * background, while the server keeps serving with the current one. Once
     * every memory has its new vector, reads and writes switch over to the new
     * embedder at once, and the old vectors are dropped. Progress survives a
     * restart: the server resumes the job when it starts again. Starting the
     * same target again returns the running job. Admin principals only.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT) for an unknown embedder or
     * the current one, UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED), FAILED_PRECONDITION (REEMBED_IN_PROGRESS) while a
     * job to another embedder runs, UNAVAILABLE (EMBEDDING_UNAVAILABLE) when
     * the new embedder cannot be loaded, RESOURCE_EXHAUSTED (RATE_LIMITED),
     * INTERNAL.
     * </pre>
     */
    public void startReembed(dev.memoryd.v1.StartReembedRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.StartReembedResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getStartReembedMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Returns the state of the current or last re-embedding. Admin principals
     * only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public void getReembedStatus(dev.memoryd.v1.GetReembedStatusRequest request,
        io.grpc.stub.StreamObserver<dev.memoryd.v1.GetReembedStatusResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetReembedStatusMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service MemoryService.
   * <pre>
   * Long-term memory for AI agents: store short texts with their scope and find
   * them again by meaning.
   * Every error carries a google.rpc.Status with one google.rpc.ErrorInfo
   * (domain "memoryd", reason one of ErrorReason) and, for bad fields, a
   * google.rpc.BadRequest naming them. Each RPC lists its errors as
   * STATUS_CODE (REASON).
   * A request larger than the server's message limit (server setting
   * max_message_bytes, 8 MiB by default) is INVALID_ARGUMENT with reason
   * MESSAGE_TOO_LARGE. gRPC itself refuses, with RESOURCE_EXHAUSTED, one over
   * twice the limit or the limit plus 1 MiB, whichever is more.
   * Writes are journaled: a mutating RPC is acknowledged once its write is on
   * disk, and applied to the index in journal order. A memory's create_time and
   * update_time are when the write that created or changed it was journaled,
   * whenever it is applied. In WRITE_MODE_ASYNC (the default) the response
   * comes at once with a write_token; in WRITE_MODE_SYNC it comes after the
   * write is applied, with its final result. Reads wait until the writes
   * already acknowledged in their scope are applied, so a caller always reads
   * its own writes. Every mutating request takes a request_id: a retry with the
   * same id returns the first response and writes nothing new, also across
   * restarts, until the retention has passed since the write finished (server
   * setting request_id_retention_seconds, 24 hours by default). Writes fail
   * fast with RESOURCE_EXHAUSTED and a google.rpc.RetryInfo while the journal
   * backlog is full, and with UNAVAILABLE while the server shuts down. From the
   * start of a shutdown the health service reports NOT_SERVING, for the server
   * ("") and for this service, while the RPCs already sent finish.
   * </pre>
   */
  public static final class MemoryServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<MemoryServiceBlockingV2Stub> {
    private MemoryServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected MemoryServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new MemoryServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * Stores a memory. With a memory_key, an existing memory with the same key
     * in the same scope is updated instead (UPDATED_EXISTING). Without one, a
     * memory whose content is at least dedup_threshold similar to one of the
     * same scope and type is not stored (SKIPPED_DUPLICATE). Returns
     * INVALID_ARGUMENT for empty or oversized content, a bad id or an empty
     * scope.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not write, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN; in WRITE_MODE_SYNC also
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED when a
     * WRITE_MODE_SYNC write is not applied within the deadline, INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.CreateMemoryResponse createMemory(dev.memoryd.v1.CreateMemoryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Stores up to 100 memories (server setting max_batch_size), each with the
     * semantics of CreateMemory, in order. If any request is invalid nothing
     * is stored and INVALID_ARGUMENT names it.
     * Errors: as CreateMemory; a bad field is named by its index
     * (requests[2].memory.content).
     * </pre>
     */
    public dev.memoryd.v1.BatchCreateMemoriesResponse batchCreateMemories(dev.memoryd.v1.BatchCreateMemoriesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getBatchCreateMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Returns one memory. Returns NOT_FOUND if it does not exist in the given
     * scope, including when it exists in another one.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND), INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) when a write it waits for is not applied before
     * the deadline, INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetMemoryResponse getMemory(dev.memoryd.v1.GetMemoryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Lists the memories of a scope, newest first (by create_time, then id),
     * without any vector search. Returns INVALID_ARGUMENT for a negative
     * page_size, a malformed filter or a page_token from another query.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.ListMemoriesResponse listMemories(dev.memoryd.v1.ListMemoriesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Changes the fields named in update_mask. Changed content is embedded
     * again. Returns NOT_FOUND for a missing memory, ABORTED if
     * expected_version is stale and INVALID_ARGUMENT for an unknown mask path.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND) and ABORTED (VERSION_MISMATCH) in
     * WRITE_MODE_SYNC (in WRITE_MODE_ASYNC they are the write's error in
     * GetWriteStatus), and the errors of CreateMemory.
     * </pre>
     */
    public dev.memoryd.v1.UpdateMemoryResponse updateMemory(dev.memoryd.v1.UpdateMemoryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getUpdateMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deletes one memory. Returns NOT_FOUND if it does not exist in the given
     * scope and ABORTED if expected_version is stale.
     * Errors: as UpdateMemory.
     * </pre>
     */
    public dev.memoryd.v1.DeleteMemoryResponse deleteMemory(dev.memoryd.v1.DeleteMemoryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDeleteMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Finds the memories of a scope closest in meaning to a query, best first.
     * Returns INVALID_ARGUMENT for an empty query, a limit outside 1-100, a
     * diversity outside 0-1, HYBRID on an index without a lexical vector, or a
     * malformed filter.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE (EMBEDDING_UNAVAILABLE),
     * DEADLINE_EXCEEDED (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.SearchMemoriesResponse searchMemories(dev.memoryd.v1.SearchMemoriesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSearchMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Retrieves the memories relevant to a conversation and renders them as a
     * context block for the next model call, in the format of 10xgraph's
     * preload.
     * It streams so that an agent can start assembling its prompt while
     * retrieval is still running, and so that a deadline yields what is ready
     * instead of nothing: the user scope and the agent scope are searched
     * concurrently and each sends one `hits` event as soon as it is done (or
     * failed, with its error inside the event). Then one `context` event with
     * the rendered block, then one `done` event. A request whose
     * if_none_match still holds gets a single `not_modified` event instead.
     * Every stream ends with exactly one terminal event, `done` or
     * `not_modified`; when the deadline comes close, unfinished scopes report
     * DEADLINE_EXCEEDED in their event and `done` is marked partial.
     * Returns INVALID_ARGUMENT, before any event, when there is neither a query
     * nor a user turn, user_scope has no user_id, agent_scope has a user_id or
     * neither agent_id nor app_id, or a limit, threshold, budget or filter is
     * out of range.
     * Errors, as the status of the stream before any event: INVALID_ARGUMENT
     * (INVALID_ARGUMENT, MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL. Inside a ScopeHits event:
     * DEADLINE_EXCEEDED (PRELOAD_SCOPE_TIMED_OUT, WRITE_NOT_YET_APPLIED),
     * UNAVAILABLE (EMBEDDING_UNAVAILABLE), INTERNAL.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, dev.memoryd.v1.PreloadResponse>
        preload(dev.memoryd.v1.PreloadRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getPreloadMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Returns the state of a write by its write_token and, once applied, the
     * result its RPC would have returned in WRITE_MODE_SYNC. Returns NOT_FOUND
     * for a token this server never issued, or whose write finished (was
     * applied or failed) longer ago than the request id retention (server
     * setting request_id_retention_seconds, 24 hours by default). A pending
     * write is never forgotten.
     * Errors: NOT_FOUND (UNKNOWN_WRITE_TOKEN), also for a write in a scope the
     * caller may not read; INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE) for an empty token, UNAUTHENTICATED,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetWriteStatusResponse getWriteStatus(dev.memoryd.v1.GetWriteStatusRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetWriteStatusMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deletes the memories of a scope that match the optional types,
     * categories and filter. With dry_run set, nothing is deleted and the
     * response still reports the count. Returns INVALID_ARGUMENT if user_id,
     * agent_id and app_id are all empty or the filter is malformed.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not forget, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) for a dry run that waits for a write, or a
     * WRITE_MODE_SYNC forget not applied within the deadline, INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.ForgetMemoriesResponse forgetMemories(dev.memoryd.v1.ForgetMemoriesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getForgetMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Streams the memories of a scope (or, for an admin principal with no
     * scope set, of every owner) with their vectors, for backup and
     * migration. The export is a snapshot: the scope's acknowledged writes are
     * applied first, then the selection is read while no write is applied, so
     * a memory written during the export is either wholly in it, as of one
     * version, or wholly absent. Writes are still acknowledged meanwhile and
     * applied once the snapshot is taken. The first response carries the
     * header; every response carries up to page_size memories. Expired
     * memories are left out.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not read or, without a scope, a caller that is not an admin,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, dev.memoryd.v1.ExportMemoriesResponse>
        exportMemories(dev.memoryd.v1.ExportMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getExportMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Imports exported memories, keeping their ids, keys, scopes, times and
     * versions. Idempotent per record: a memory already stored at the same or
     * a newer version is left as it is, so running an interrupted import again
     * writes nothing twice. A record whose embedder_id is the server's keeps
     * its vector; any other is embedded again. Each request message is
     * journaled as one write before it is applied, so an import is as durable
     * as any write; the response comes once every record is applied. Records
     * already expired are skipped. A bad record fails the call with
     * INVALID_ARGUMENT naming it (messages before it stay imported; run the
     * corrected import again).
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a record in
     * a scope the caller may not write, RESOURCE_EXHAUSTED
     * (WRITE_BACKLOG_FULL, RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN,
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED, INTERNAL.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<dev.memoryd.v1.ImportMemoriesRequest, dev.memoryd.v1.ImportMemoriesResponse>
        importMemories() {
      return io.grpc.stub.ClientCalls.blockingClientStreamingCall(
          getChannel(), getImportMemoriesMethod(), getCallOptions());
    }

    /**
     * <pre>
     * Streams the changes to the memories of a scope (or, for an admin
     * principal with no scope set, of every owner) as they are applied:
     * created, updated, deleted and expired, each with a sequence number that
     * increases across the server's whole change history. The first response
     * is `started`, naming the sequence the stream continues after; from then
     * on nothing is missed and nothing is sent twice. Resume after a
     * disconnect with start_after_sequence set to the last sequence received.
     * A consumer that reads too slowly for the server's buffer (server setting
     * watch_buffer_events) gets one `fell_behind` response naming the
     * sequence to resume after, and the stream ends with OK: no event is ever
     * skipped silently. The history is kept for the request id retention
     * (request_id_retention_seconds).
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED), OUT_OF_RANGE
     * (CHANGE_HISTORY_EXPIRED) for a start_after_sequence older than the kept
     * history or past its end, RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE
     * (SHUTTING_DOWN), INTERNAL.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, dev.memoryd.v1.WatchMemoriesResponse>
        watchMemories(dev.memoryd.v1.WatchMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getWatchMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Reports what the server holds: memories per kind of owner, the journal
     * backlog, the embedder, the engine's sizes and any re-embedding. Admin
     * principals only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetStatsResponse getStats(dev.memoryd.v1.GetStatsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetStatsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Starts re-embedding every memory with another embedder, in the
     * background, while the server keeps serving with the current one. Once
     * every memory has its new vector, reads and writes switch over to the new
     * embedder at once, and the old vectors are dropped. Progress survives a
     * restart: the server resumes the job when it starts again. Starting the
     * same target again returns the running job. Admin principals only.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT) for an unknown embedder or
     * the current one, UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED), FAILED_PRECONDITION (REEMBED_IN_PROGRESS) while a
     * job to another embedder runs, UNAVAILABLE (EMBEDDING_UNAVAILABLE) when
     * the new embedder cannot be loaded, RESOURCE_EXHAUSTED (RATE_LIMITED),
     * INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.StartReembedResponse startReembed(dev.memoryd.v1.StartReembedRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getStartReembedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Returns the state of the current or last re-embedding. Admin principals
     * only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetReembedStatusResponse getReembedStatus(dev.memoryd.v1.GetReembedStatusRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetReembedStatusMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service MemoryService.
   * <pre>
   * Long-term memory for AI agents: store short texts with their scope and find
   * them again by meaning.
   * Every error carries a google.rpc.Status with one google.rpc.ErrorInfo
   * (domain "memoryd", reason one of ErrorReason) and, for bad fields, a
   * google.rpc.BadRequest naming them. Each RPC lists its errors as
   * STATUS_CODE (REASON).
   * A request larger than the server's message limit (server setting
   * max_message_bytes, 8 MiB by default) is INVALID_ARGUMENT with reason
   * MESSAGE_TOO_LARGE. gRPC itself refuses, with RESOURCE_EXHAUSTED, one over
   * twice the limit or the limit plus 1 MiB, whichever is more.
   * Writes are journaled: a mutating RPC is acknowledged once its write is on
   * disk, and applied to the index in journal order. A memory's create_time and
   * update_time are when the write that created or changed it was journaled,
   * whenever it is applied. In WRITE_MODE_ASYNC (the default) the response
   * comes at once with a write_token; in WRITE_MODE_SYNC it comes after the
   * write is applied, with its final result. Reads wait until the writes
   * already acknowledged in their scope are applied, so a caller always reads
   * its own writes. Every mutating request takes a request_id: a retry with the
   * same id returns the first response and writes nothing new, also across
   * restarts, until the retention has passed since the write finished (server
   * setting request_id_retention_seconds, 24 hours by default). Writes fail
   * fast with RESOURCE_EXHAUSTED and a google.rpc.RetryInfo while the journal
   * backlog is full, and with UNAVAILABLE while the server shuts down. From the
   * start of a shutdown the health service reports NOT_SERVING, for the server
   * ("") and for this service, while the RPCs already sent finish.
   * </pre>
   */
  public static final class MemoryServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<MemoryServiceBlockingStub> {
    private MemoryServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected MemoryServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new MemoryServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Stores a memory. With a memory_key, an existing memory with the same key
     * in the same scope is updated instead (UPDATED_EXISTING). Without one, a
     * memory whose content is at least dedup_threshold similar to one of the
     * same scope and type is not stored (SKIPPED_DUPLICATE). Returns
     * INVALID_ARGUMENT for empty or oversized content, a bad id or an empty
     * scope.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not write, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN; in WRITE_MODE_SYNC also
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED when a
     * WRITE_MODE_SYNC write is not applied within the deadline, INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.CreateMemoryResponse createMemory(dev.memoryd.v1.CreateMemoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Stores up to 100 memories (server setting max_batch_size), each with the
     * semantics of CreateMemory, in order. If any request is invalid nothing
     * is stored and INVALID_ARGUMENT names it.
     * Errors: as CreateMemory; a bad field is named by its index
     * (requests[2].memory.content).
     * </pre>
     */
    public dev.memoryd.v1.BatchCreateMemoriesResponse batchCreateMemories(dev.memoryd.v1.BatchCreateMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getBatchCreateMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Returns one memory. Returns NOT_FOUND if it does not exist in the given
     * scope, including when it exists in another one.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND), INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) when a write it waits for is not applied before
     * the deadline, INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetMemoryResponse getMemory(dev.memoryd.v1.GetMemoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Lists the memories of a scope, newest first (by create_time, then id),
     * without any vector search. Returns INVALID_ARGUMENT for a negative
     * page_size, a malformed filter or a page_token from another query.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.ListMemoriesResponse listMemories(dev.memoryd.v1.ListMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Changes the fields named in update_mask. Changed content is embedded
     * again. Returns NOT_FOUND for a missing memory, ABORTED if
     * expected_version is stale and INVALID_ARGUMENT for an unknown mask path.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND) and ABORTED (VERSION_MISMATCH) in
     * WRITE_MODE_SYNC (in WRITE_MODE_ASYNC they are the write's error in
     * GetWriteStatus), and the errors of CreateMemory.
     * </pre>
     */
    public dev.memoryd.v1.UpdateMemoryResponse updateMemory(dev.memoryd.v1.UpdateMemoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getUpdateMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deletes one memory. Returns NOT_FOUND if it does not exist in the given
     * scope and ABORTED if expected_version is stale.
     * Errors: as UpdateMemory.
     * </pre>
     */
    public dev.memoryd.v1.DeleteMemoryResponse deleteMemory(dev.memoryd.v1.DeleteMemoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Finds the memories of a scope closest in meaning to a query, best first.
     * Returns INVALID_ARGUMENT for an empty query, a limit outside 1-100, a
     * diversity outside 0-1, HYBRID on an index without a lexical vector, or a
     * malformed filter.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE (EMBEDDING_UNAVAILABLE),
     * DEADLINE_EXCEEDED (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.SearchMemoriesResponse searchMemories(dev.memoryd.v1.SearchMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSearchMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Retrieves the memories relevant to a conversation and renders them as a
     * context block for the next model call, in the format of 10xgraph's
     * preload.
     * It streams so that an agent can start assembling its prompt while
     * retrieval is still running, and so that a deadline yields what is ready
     * instead of nothing: the user scope and the agent scope are searched
     * concurrently and each sends one `hits` event as soon as it is done (or
     * failed, with its error inside the event). Then one `context` event with
     * the rendered block, then one `done` event. A request whose
     * if_none_match still holds gets a single `not_modified` event instead.
     * Every stream ends with exactly one terminal event, `done` or
     * `not_modified`; when the deadline comes close, unfinished scopes report
     * DEADLINE_EXCEEDED in their event and `done` is marked partial.
     * Returns INVALID_ARGUMENT, before any event, when there is neither a query
     * nor a user turn, user_scope has no user_id, agent_scope has a user_id or
     * neither agent_id nor app_id, or a limit, threshold, budget or filter is
     * out of range.
     * Errors, as the status of the stream before any event: INVALID_ARGUMENT
     * (INVALID_ARGUMENT, MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL. Inside a ScopeHits event:
     * DEADLINE_EXCEEDED (PRELOAD_SCOPE_TIMED_OUT, WRITE_NOT_YET_APPLIED),
     * UNAVAILABLE (EMBEDDING_UNAVAILABLE), INTERNAL.
     * </pre>
     */
    public java.util.Iterator<dev.memoryd.v1.PreloadResponse> preload(
        dev.memoryd.v1.PreloadRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getPreloadMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Returns the state of a write by its write_token and, once applied, the
     * result its RPC would have returned in WRITE_MODE_SYNC. Returns NOT_FOUND
     * for a token this server never issued, or whose write finished (was
     * applied or failed) longer ago than the request id retention (server
     * setting request_id_retention_seconds, 24 hours by default). A pending
     * write is never forgotten.
     * Errors: NOT_FOUND (UNKNOWN_WRITE_TOKEN), also for a write in a scope the
     * caller may not read; INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE) for an empty token, UNAUTHENTICATED,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetWriteStatusResponse getWriteStatus(dev.memoryd.v1.GetWriteStatusRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetWriteStatusMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deletes the memories of a scope that match the optional types,
     * categories and filter. With dry_run set, nothing is deleted and the
     * response still reports the count. Returns INVALID_ARGUMENT if user_id,
     * agent_id and app_id are all empty or the filter is malformed.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not forget, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) for a dry run that waits for a write, or a
     * WRITE_MODE_SYNC forget not applied within the deadline, INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.ForgetMemoriesResponse forgetMemories(dev.memoryd.v1.ForgetMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getForgetMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Streams the memories of a scope (or, for an admin principal with no
     * scope set, of every owner) with their vectors, for backup and
     * migration. The export is a snapshot: the scope's acknowledged writes are
     * applied first, then the selection is read while no write is applied, so
     * a memory written during the export is either wholly in it, as of one
     * version, or wholly absent. Writes are still acknowledged meanwhile and
     * applied once the snapshot is taken. The first response carries the
     * header; every response carries up to page_size memories. Expired
     * memories are left out.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not read or, without a scope, a caller that is not an admin,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public java.util.Iterator<dev.memoryd.v1.ExportMemoriesResponse> exportMemories(
        dev.memoryd.v1.ExportMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getExportMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Streams the changes to the memories of a scope (or, for an admin
     * principal with no scope set, of every owner) as they are applied:
     * created, updated, deleted and expired, each with a sequence number that
     * increases across the server's whole change history. The first response
     * is `started`, naming the sequence the stream continues after; from then
     * on nothing is missed and nothing is sent twice. Resume after a
     * disconnect with start_after_sequence set to the last sequence received.
     * A consumer that reads too slowly for the server's buffer (server setting
     * watch_buffer_events) gets one `fell_behind` response naming the
     * sequence to resume after, and the stream ends with OK: no event is ever
     * skipped silently. The history is kept for the request id retention
     * (request_id_retention_seconds).
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED), OUT_OF_RANGE
     * (CHANGE_HISTORY_EXPIRED) for a start_after_sequence older than the kept
     * history or past its end, RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE
     * (SHUTTING_DOWN), INTERNAL.
     * </pre>
     */
    public java.util.Iterator<dev.memoryd.v1.WatchMemoriesResponse> watchMemories(
        dev.memoryd.v1.WatchMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getWatchMemoriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Reports what the server holds: memories per kind of owner, the journal
     * backlog, the embedder, the engine's sizes and any re-embedding. Admin
     * principals only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetStatsResponse getStats(dev.memoryd.v1.GetStatsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetStatsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Starts re-embedding every memory with another embedder, in the
     * background, while the server keeps serving with the current one. Once
     * every memory has its new vector, reads and writes switch over to the new
     * embedder at once, and the old vectors are dropped. Progress survives a
     * restart: the server resumes the job when it starts again. Starting the
     * same target again returns the running job. Admin principals only.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT) for an unknown embedder or
     * the current one, UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED), FAILED_PRECONDITION (REEMBED_IN_PROGRESS) while a
     * job to another embedder runs, UNAVAILABLE (EMBEDDING_UNAVAILABLE) when
     * the new embedder cannot be loaded, RESOURCE_EXHAUSTED (RATE_LIMITED),
     * INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.StartReembedResponse startReembed(dev.memoryd.v1.StartReembedRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getStartReembedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Returns the state of the current or last re-embedding. Admin principals
     * only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public dev.memoryd.v1.GetReembedStatusResponse getReembedStatus(dev.memoryd.v1.GetReembedStatusRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetReembedStatusMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service MemoryService.
   * <pre>
   * Long-term memory for AI agents: store short texts with their scope and find
   * them again by meaning.
   * Every error carries a google.rpc.Status with one google.rpc.ErrorInfo
   * (domain "memoryd", reason one of ErrorReason) and, for bad fields, a
   * google.rpc.BadRequest naming them. Each RPC lists its errors as
   * STATUS_CODE (REASON).
   * A request larger than the server's message limit (server setting
   * max_message_bytes, 8 MiB by default) is INVALID_ARGUMENT with reason
   * MESSAGE_TOO_LARGE. gRPC itself refuses, with RESOURCE_EXHAUSTED, one over
   * twice the limit or the limit plus 1 MiB, whichever is more.
   * Writes are journaled: a mutating RPC is acknowledged once its write is on
   * disk, and applied to the index in journal order. A memory's create_time and
   * update_time are when the write that created or changed it was journaled,
   * whenever it is applied. In WRITE_MODE_ASYNC (the default) the response
   * comes at once with a write_token; in WRITE_MODE_SYNC it comes after the
   * write is applied, with its final result. Reads wait until the writes
   * already acknowledged in their scope are applied, so a caller always reads
   * its own writes. Every mutating request takes a request_id: a retry with the
   * same id returns the first response and writes nothing new, also across
   * restarts, until the retention has passed since the write finished (server
   * setting request_id_retention_seconds, 24 hours by default). Writes fail
   * fast with RESOURCE_EXHAUSTED and a google.rpc.RetryInfo while the journal
   * backlog is full, and with UNAVAILABLE while the server shuts down. From the
   * start of a shutdown the health service reports NOT_SERVING, for the server
   * ("") and for this service, while the RPCs already sent finish.
   * </pre>
   */
  public static final class MemoryServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<MemoryServiceFutureStub> {
    private MemoryServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected MemoryServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new MemoryServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Stores a memory. With a memory_key, an existing memory with the same key
     * in the same scope is updated instead (UPDATED_EXISTING). Without one, a
     * memory whose content is at least dedup_threshold similar to one of the
     * same scope and type is not stored (SKIPPED_DUPLICATE). Returns
     * INVALID_ARGUMENT for empty or oversized content, a bad id or an empty
     * scope.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not write, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN; in WRITE_MODE_SYNC also
     * EMBEDDING_UNAVAILABLE, WRITE_FAILED), DEADLINE_EXCEEDED when a
     * WRITE_MODE_SYNC write is not applied within the deadline, INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.CreateMemoryResponse> createMemory(
        dev.memoryd.v1.CreateMemoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateMemoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Stores up to 100 memories (server setting max_batch_size), each with the
     * semantics of CreateMemory, in order. If any request is invalid nothing
     * is stored and INVALID_ARGUMENT names it.
     * Errors: as CreateMemory; a bad field is named by its index
     * (requests[2].memory.content).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.BatchCreateMemoriesResponse> batchCreateMemories(
        dev.memoryd.v1.BatchCreateMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getBatchCreateMemoriesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Returns one memory. Returns NOT_FOUND if it does not exist in the given
     * scope, including when it exists in another one.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND), INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE), UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED) for a scope the caller may not read,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) when a write it waits for is not applied before
     * the deadline, INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.GetMemoryResponse> getMemory(
        dev.memoryd.v1.GetMemoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetMemoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Lists the memories of a scope, newest first (by create_time, then id),
     * without any vector search. Returns INVALID_ARGUMENT for a negative
     * page_size, a malformed filter or a page_token from another query.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.ListMemoriesResponse> listMemories(
        dev.memoryd.v1.ListMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListMemoriesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Changes the fields named in update_mask. Changed content is embedded
     * again. Returns NOT_FOUND for a missing memory, ABORTED if
     * expected_version is stale and INVALID_ARGUMENT for an unknown mask path.
     * Errors: NOT_FOUND (MEMORY_NOT_FOUND) and ABORTED (VERSION_MISMATCH) in
     * WRITE_MODE_SYNC (in WRITE_MODE_ASYNC they are the write's error in
     * GetWriteStatus), and the errors of CreateMemory.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.UpdateMemoryResponse> updateMemory(
        dev.memoryd.v1.UpdateMemoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getUpdateMemoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Deletes one memory. Returns NOT_FOUND if it does not exist in the given
     * scope and ABORTED if expected_version is stale.
     * Errors: as UpdateMemory.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.DeleteMemoryResponse> deleteMemory(
        dev.memoryd.v1.DeleteMemoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteMemoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Finds the memories of a scope closest in meaning to a query, best first.
     * Returns INVALID_ARGUMENT for an empty query, a limit outside 1-100, a
     * diversity outside 0-1, HYBRID on an index without a lexical vector, or a
     * malformed filter.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), UNAVAILABLE (EMBEDDING_UNAVAILABLE),
     * DEADLINE_EXCEEDED (WRITE_NOT_YET_APPLIED), INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.SearchMemoriesResponse> searchMemories(
        dev.memoryd.v1.SearchMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSearchMemoriesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Returns the state of a write by its write_token and, once applied, the
     * result its RPC would have returned in WRITE_MODE_SYNC. Returns NOT_FOUND
     * for a token this server never issued, or whose write finished (was
     * applied or failed) longer ago than the request id retention (server
     * setting request_id_retention_seconds, 24 hours by default). A pending
     * write is never forgotten.
     * Errors: NOT_FOUND (UNKNOWN_WRITE_TOKEN), also for a write in a scope the
     * caller may not read; INVALID_ARGUMENT (INVALID_ARGUMENT,
     * MESSAGE_TOO_LARGE) for an empty token, UNAUTHENTICATED,
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.GetWriteStatusResponse> getWriteStatus(
        dev.memoryd.v1.GetWriteStatusRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetWriteStatusMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Deletes the memories of a scope that match the optional types,
     * categories and filter. With dry_run set, nothing is deleted and the
     * response still reports the count. Returns INVALID_ARGUMENT if user_id,
     * agent_id and app_id are all empty or the filter is malformed.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT, MESSAGE_TOO_LARGE),
     * UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED) for a scope the
     * caller may not forget, RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL,
     * RATE_LIMITED), UNAVAILABLE (SHUTTING_DOWN), DEADLINE_EXCEEDED
     * (WRITE_NOT_YET_APPLIED) for a dry run that waits for a write, or a
     * WRITE_MODE_SYNC forget not applied within the deadline, INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.ForgetMemoriesResponse> forgetMemories(
        dev.memoryd.v1.ForgetMemoriesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getForgetMemoriesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Reports what the server holds: memories per kind of owner, the journal
     * backlog, the embedder, the engine's sizes and any re-embedding. Admin
     * principals only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.GetStatsResponse> getStats(
        dev.memoryd.v1.GetStatsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetStatsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Starts re-embedding every memory with another embedder, in the
     * background, while the server keeps serving with the current one. Once
     * every memory has its new vector, reads and writes switch over to the new
     * embedder at once, and the old vectors are dropped. Progress survives a
     * restart: the server resumes the job when it starts again. Starting the
     * same target again returns the running job. Admin principals only.
     * Errors: INVALID_ARGUMENT (INVALID_ARGUMENT) for an unknown embedder or
     * the current one, UNAUTHENTICATED, PERMISSION_DENIED
     * (SCOPE_NOT_PERMITTED), FAILED_PRECONDITION (REEMBED_IN_PROGRESS) while a
     * job to another embedder runs, UNAVAILABLE (EMBEDDING_UNAVAILABLE) when
     * the new embedder cannot be loaded, RESOURCE_EXHAUSTED (RATE_LIMITED),
     * INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.StartReembedResponse> startReembed(
        dev.memoryd.v1.StartReembedRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getStartReembedMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Returns the state of the current or last re-embedding. Admin principals
     * only.
     * Errors: UNAUTHENTICATED, PERMISSION_DENIED (SCOPE_NOT_PERMITTED),
     * RESOURCE_EXHAUSTED (RATE_LIMITED), INTERNAL.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.memoryd.v1.GetReembedStatusResponse> getReembedStatus(
        dev.memoryd.v1.GetReembedStatusRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetReembedStatusMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_MEMORY = 0;
  private static final int METHODID_BATCH_CREATE_MEMORIES = 1;
  private static final int METHODID_GET_MEMORY = 2;
  private static final int METHODID_LIST_MEMORIES = 3;
  private static final int METHODID_UPDATE_MEMORY = 4;
  private static final int METHODID_DELETE_MEMORY = 5;
  private static final int METHODID_SEARCH_MEMORIES = 6;
  private static final int METHODID_PRELOAD = 7;
  private static final int METHODID_GET_WRITE_STATUS = 8;
  private static final int METHODID_FORGET_MEMORIES = 9;
  private static final int METHODID_EXPORT_MEMORIES = 10;
  private static final int METHODID_WATCH_MEMORIES = 11;
  private static final int METHODID_GET_STATS = 12;
  private static final int METHODID_START_REEMBED = 13;
  private static final int METHODID_GET_REEMBED_STATUS = 14;
  private static final int METHODID_IMPORT_MEMORIES = 15;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AsyncService serviceImpl;
    private final int methodId;

    MethodHandlers(AsyncService serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_CREATE_MEMORY:
          serviceImpl.createMemory((dev.memoryd.v1.CreateMemoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.CreateMemoryResponse>) responseObserver);
          break;
        case METHODID_BATCH_CREATE_MEMORIES:
          serviceImpl.batchCreateMemories((dev.memoryd.v1.BatchCreateMemoriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.BatchCreateMemoriesResponse>) responseObserver);
          break;
        case METHODID_GET_MEMORY:
          serviceImpl.getMemory((dev.memoryd.v1.GetMemoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.GetMemoryResponse>) responseObserver);
          break;
        case METHODID_LIST_MEMORIES:
          serviceImpl.listMemories((dev.memoryd.v1.ListMemoriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.ListMemoriesResponse>) responseObserver);
          break;
        case METHODID_UPDATE_MEMORY:
          serviceImpl.updateMemory((dev.memoryd.v1.UpdateMemoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.UpdateMemoryResponse>) responseObserver);
          break;
        case METHODID_DELETE_MEMORY:
          serviceImpl.deleteMemory((dev.memoryd.v1.DeleteMemoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.DeleteMemoryResponse>) responseObserver);
          break;
        case METHODID_SEARCH_MEMORIES:
          serviceImpl.searchMemories((dev.memoryd.v1.SearchMemoriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.SearchMemoriesResponse>) responseObserver);
          break;
        case METHODID_PRELOAD:
          serviceImpl.preload((dev.memoryd.v1.PreloadRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.PreloadResponse>) responseObserver);
          break;
        case METHODID_GET_WRITE_STATUS:
          serviceImpl.getWriteStatus((dev.memoryd.v1.GetWriteStatusRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.GetWriteStatusResponse>) responseObserver);
          break;
        case METHODID_FORGET_MEMORIES:
          serviceImpl.forgetMemories((dev.memoryd.v1.ForgetMemoriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.ForgetMemoriesResponse>) responseObserver);
          break;
        case METHODID_EXPORT_MEMORIES:
          serviceImpl.exportMemories((dev.memoryd.v1.ExportMemoriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.ExportMemoriesResponse>) responseObserver);
          break;
        case METHODID_WATCH_MEMORIES:
          serviceImpl.watchMemories((dev.memoryd.v1.WatchMemoriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.WatchMemoriesResponse>) responseObserver);
          break;
        case METHODID_GET_STATS:
          serviceImpl.getStats((dev.memoryd.v1.GetStatsRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.GetStatsResponse>) responseObserver);
          break;
        case METHODID_START_REEMBED:
          serviceImpl.startReembed((dev.memoryd.v1.StartReembedRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.StartReembedResponse>) responseObserver);
          break;
        case METHODID_GET_REEMBED_STATUS:
          serviceImpl.getReembedStatus((dev.memoryd.v1.GetReembedStatusRequest) request,
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.GetReembedStatusResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_IMPORT_MEMORIES:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.importMemories(
              (io.grpc.stub.StreamObserver<dev.memoryd.v1.ImportMemoriesResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getCreateMemoryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.CreateMemoryRequest,
              dev.memoryd.v1.CreateMemoryResponse>(
                service, METHODID_CREATE_MEMORY)))
        .addMethod(
          getBatchCreateMemoriesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.BatchCreateMemoriesRequest,
              dev.memoryd.v1.BatchCreateMemoriesResponse>(
                service, METHODID_BATCH_CREATE_MEMORIES)))
        .addMethod(
          getGetMemoryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.GetMemoryRequest,
              dev.memoryd.v1.GetMemoryResponse>(
                service, METHODID_GET_MEMORY)))
        .addMethod(
          getListMemoriesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.ListMemoriesRequest,
              dev.memoryd.v1.ListMemoriesResponse>(
                service, METHODID_LIST_MEMORIES)))
        .addMethod(
          getUpdateMemoryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.UpdateMemoryRequest,
              dev.memoryd.v1.UpdateMemoryResponse>(
                service, METHODID_UPDATE_MEMORY)))
        .addMethod(
          getDeleteMemoryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.DeleteMemoryRequest,
              dev.memoryd.v1.DeleteMemoryResponse>(
                service, METHODID_DELETE_MEMORY)))
        .addMethod(
          getSearchMemoriesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.SearchMemoriesRequest,
              dev.memoryd.v1.SearchMemoriesResponse>(
                service, METHODID_SEARCH_MEMORIES)))
        .addMethod(
          getPreloadMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              dev.memoryd.v1.PreloadRequest,
              dev.memoryd.v1.PreloadResponse>(
                service, METHODID_PRELOAD)))
        .addMethod(
          getGetWriteStatusMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.GetWriteStatusRequest,
              dev.memoryd.v1.GetWriteStatusResponse>(
                service, METHODID_GET_WRITE_STATUS)))
        .addMethod(
          getForgetMemoriesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.ForgetMemoriesRequest,
              dev.memoryd.v1.ForgetMemoriesResponse>(
                service, METHODID_FORGET_MEMORIES)))
        .addMethod(
          getExportMemoriesMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              dev.memoryd.v1.ExportMemoriesRequest,
              dev.memoryd.v1.ExportMemoriesResponse>(
                service, METHODID_EXPORT_MEMORIES)))
        .addMethod(
          getImportMemoriesMethod(),
          io.grpc.stub.ServerCalls.asyncClientStreamingCall(
            new MethodHandlers<
              dev.memoryd.v1.ImportMemoriesRequest,
              dev.memoryd.v1.ImportMemoriesResponse>(
                service, METHODID_IMPORT_MEMORIES)))
        .addMethod(
          getWatchMemoriesMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              dev.memoryd.v1.WatchMemoriesRequest,
              dev.memoryd.v1.WatchMemoriesResponse>(
                service, METHODID_WATCH_MEMORIES)))
        .addMethod(
          getGetStatsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.GetStatsRequest,
              dev.memoryd.v1.GetStatsResponse>(
                service, METHODID_GET_STATS)))
        .addMethod(
          getStartReembedMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.StartReembedRequest,
              dev.memoryd.v1.StartReembedResponse>(
                service, METHODID_START_REEMBED)))
        .addMethod(
          getGetReembedStatusMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.memoryd.v1.GetReembedStatusRequest,
              dev.memoryd.v1.GetReembedStatusResponse>(
                service, METHODID_GET_REEMBED_STATUS)))
        .build();
  }

  private static abstract class MemoryServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    MemoryServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.memoryd.v1.MemoryServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("MemoryService");
    }
  }

  private static final class MemoryServiceFileDescriptorSupplier
      extends MemoryServiceBaseDescriptorSupplier {
    MemoryServiceFileDescriptorSupplier() {}
  }

  private static final class MemoryServiceMethodDescriptorSupplier
      extends MemoryServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    MemoryServiceMethodDescriptorSupplier(java.lang.String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (MemoryServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new MemoryServiceFileDescriptorSupplier())
              .addMethod(getCreateMemoryMethod())
              .addMethod(getBatchCreateMemoriesMethod())
              .addMethod(getGetMemoryMethod())
              .addMethod(getListMemoriesMethod())
              .addMethod(getUpdateMemoryMethod())
              .addMethod(getDeleteMemoryMethod())
              .addMethod(getSearchMemoriesMethod())
              .addMethod(getPreloadMethod())
              .addMethod(getGetWriteStatusMethod())
              .addMethod(getForgetMemoriesMethod())
              .addMethod(getExportMemoriesMethod())
              .addMethod(getImportMemoriesMethod())
              .addMethod(getWatchMemoriesMethod())
              .addMethod(getGetStatsMethod())
              .addMethod(getStartReembedMethod())
              .addMethod(getGetReembedStatusMethod())
              .build();
        }
      }
    }
    return result;
  }
}
